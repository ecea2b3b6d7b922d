// The little of markdown-it (no bundled types) that the export-escaping tests use.
declare module 'markdown-it' {
  export interface Token {
    type: string;
    tag: string;
    content: string;
    attrs: [string, string][] | null;
    children: Token[] | null;
    attrGet(name: string): string | null;
  }
  export default class MarkdownIt {
    constructor(preset?: 'default' | 'commonmark' | 'zero', options?: { html?: boolean; linkify?: boolean });
    parse(src: string, env: object): Token[];
    render(src: string): string;
  }
}
