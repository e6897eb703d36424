// The controller, for components that send commands (they read state from the store).

import { createContext, useContext } from 'react';
import type { PlaygroundController } from './controller';

export const ControllerContext = createContext<PlaygroundController | null>(null);

/** The page's controller, or null while the GPU probe and the worker are starting. */
export function useController(): PlaygroundController | null {
  return useContext(ControllerContext);
}
