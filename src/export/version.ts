// The product's version, from package.json (the extension's manifest version follows it too, see
// vite.config.ts). A named import, so a bundle keeps this one field of package.json.
import { version } from '../../package.json';

export const PRODUCT_NAME = 'mcp-stream-inspector';
export const PRODUCT_VERSION: string = version;
