// Keyboard shortcuts for a lecturer at a projector: Space = play/pause, → = one step,
// Shift+→ = one phase, ← / → with Alt = previous / next group, Escape closes the drawer.
// Keys typed into a form control are left alone.

import { useEffect } from 'react';
import type { PlaygroundController } from '../controller';
import { appStore } from '../../store/store';

/** What a key does, or null when the page should not handle it. Pure, for tests. */
export type ShortcutAction = 'toggle-play' | 'step' | 'phase' | 'next-group' | 'previous-group' | 'close-drawer';

export function shortcutFor(
  e: { key: string; shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean },
  targetTag: string,
): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey) return null;
  if (e.key === 'Escape') return 'close-drawer';
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(targetTag)) return null;
  if (e.key === ' ' && !e.shiftKey && !e.altKey) return 'toggle-play';
  if (e.key === 'ArrowRight') return e.altKey ? 'next-group' : e.shiftKey ? 'phase' : 'step';
  if (e.key === 'ArrowLeft' && e.altKey) return 'previous-group';
  return null;
}

export function useShortcuts(controller: PlaygroundController | null): void {
  useEffect(() => {
    if (!controller) return;
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement | null)?.tagName ?? '';
      const action = shortcutFor(e, tag);
      if (!action) return;
      // A focused button would also "click" on Space: the shortcut replaces that.
      e.preventDefault();
      const s = appStore.getState();
      switch (action) {
        case 'toggle-play':
          controller.togglePlay();
          return;
        case 'step':
          controller.step();
          return;
        case 'phase':
          controller.phase();
          return;
        case 'next-group':
          s.setGroupIndex(Math.min(s.groupIndex + 1, Math.max(0, (s.rollout?.shape.B ?? 1) - 1)));
          return;
        case 'previous-group':
          s.setGroupIndex(s.groupIndex - 1);
          return;
        case 'close-drawer':
          s.setDrawer(null);
          return;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller]);
}
