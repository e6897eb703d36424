// What the controller's parts share: the page's environment, the store, and the few controller
// calls they may make (send a command, build a model, hold code that is unread).

import type { RunConfig } from '../../config';
import type { AppStore } from '../../store/store';
import type { KeptCheckpoint } from '../../store/archive';
import type { Command } from '../../worker/protocol';
import type { Jump } from '../../store/trainingSlice';

export interface ControllerEnv {
  /** Calls `fn` before the next frame is painted (requestAnimationFrame in the page). */
  requestFrame(fn: () => void): void;
  /** Replaces the page's query string (history.replaceState). */
  replaceSearch(search: string): void;
  /** Offers bytes or text to the person as a file. */
  download(fileName: string, data: Uint8Array | string, mime: string): void;
  /** Fetches a file shipped with the page (a trained checkpoint). */
  fetchBytes?(path: string): Promise<Uint8Array>;
  /** Keeps the latest checkpoint of the run in training across a reload (IndexedDB). */
  keepCheckpoint?(ck: KeptCheckpoint): void;
}

/** How a new run begins: its label and what is drawn beside it. */
export interface NewRunOptions {
  label?: string;
  importedFrom?: string;
  variant?: string;
  /** Runs overlaid on the charts beside the new one (default: the overlay as it is). */
  overlay?: string[];
  /** The lesson checkpoint the model is loaded from: its recorded runs are drawn up to its step. */
  jump?: Jump;
}

/** How a model is built: for a new run or the active one, from given weights and position. */
export type InitOptions = {
  newRun: boolean;
  params?: Float32Array;
  resume?: { step: number; level: number };
} & NewRunOptions;

export interface ControllerHost {
  readonly store: AppStore;
  readonly env: ControllerEnv;
  send(cmd: Command): void;
  /** Builds a model in the worker (PlaygroundController.init). */
  init(config: RunConfig, options: InitOptions): void;
  /** Whether `config` runs code the person has not read (then nothing may be sent). */
  codeWaits(config: RunConfig): boolean;
}
