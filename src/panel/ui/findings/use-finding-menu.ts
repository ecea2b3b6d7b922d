// The actions on a finding, shared by its row's context menu, Ctrl/Cmd+C and the detail's buttons.

import type { Finding } from '../../../core/model';
import type { MenuItem } from '../common/ContextMenu';
import { useCopy } from '../common/copy';
import { useNavActions } from '../navigation/NavigationProvider';
import { useViewModel } from '../store/StoreContext';
import { findingMarkdown } from './finding-markdown';
import { findingMessage } from './finding-target';

export function useFindingActions() {
  const vm = useViewModel();
  const act = useNavActions();
  const copy = useCopy();
  const lane = (id: string) => {
    const s = vm.snap.streams[id];
    return (s && vm.session(s.sessionKey)?.lanes.labels.get(id)) ?? 'a stream not in the capture';
  };
  const copyMarkdown = (f: Finding) => copy(findingMarkdown(vm.snap, f, lane, findingMessage(vm, f)), 'the finding as Markdown');
  const items = (f: Finding): MenuItem[] => [
    { label: 'Copy as Markdown', onSelect: () => copyMarkdown(f), testId: 'menu-copy-markdown' },
    { label: 'Copy explanation', onSelect: () => copy(findingMessage(vm, f), 'the explanation') },
    'separator',
    { label: 'Show in timeline', onSelect: () => act.showFindingInTimeline(f) },
    { label: 'Show in events', onSelect: () => act.showFindingInEvents(f) },
  ];
  return { copyMarkdown, items, lane };
}
