// The rule that code from outside never runs unread (docs/custom-estimators.md, "Shared links"):
// a config whose active code came with a link or a file, and has not been approved with Run in
// the code panel, is held; the panel opens on it and a notice says why.

import type { RunConfig } from '../../config';
import { CODE_NAME } from '../../config/user-code';
import { unreviewedCode } from '../../store/codeSlice';
import type { AppState } from '../../store/store';

/** True when `config` is held for review (nothing may be sent to the worker); shows the code. */
export function holdUnreadCode(s: AppState, config: RunConfig): boolean {
  const kinds = unreviewedCode(s, config);
  if (kinds.length === 0) return false;
  s.holdForReview();
  s.setCodeTab(kinds[0]);
  if (s.view === 'lecture') s.setDrawer('code');
  const from = s.codeReview?.source === 'file' ? 'file' : 'link';
  s.notify(
    'info',
    `This ${from} carries code (${kinds.map((k) => CODE_NAME[k]).join(' and ')}). Read it in the code panel: it runs only when you press Run there.`,
  );
  return true;
}
