// The lesson table (presets.ts reads it): every lesson, in the order the page lists them, one
// file each, each a diff on the default config or on a shared recipe (../recipes.ts).

import type { Preset } from '../types';
import { startHere } from './start-here';
import { deadGroups } from './dead-groups';
import { cotDiscovery } from './cot-discovery';
import { noCotRoom } from './no-cot-room';
import { entropyCollapse } from './entropy-collapse';
import { consensusCollapse } from './consensus-collapse';
import { clipHigher } from './clip-higher';
import { mappVsGrpo } from './mapp-vs-grpo';
import { mazeGrpo } from './maze-grpo';
import { mazeDrGrpo } from './maze-dr-grpo';
import { mazeBaseRl } from './maze-base-rl';
import { sortEasy } from './sort-easy';
import { advantageEstimators } from './advantage-estimators';
import { cotA4 } from './cot-a4';
import { cotS4 } from './cot-s4';
import { cotA5 } from './cot-a5';
import { noCotA5 } from './no-cot-a5';
import { cotBlock } from './cot-block';
import { yourEstimator } from './your-estimator';
import { maze5x5 } from './maze-5x5';
import { rewardHacking } from './reward-hacking';

export const PRESET_TABLE: readonly Preset[] = [
  startHere,
  deadGroups,
  cotDiscovery,
  noCotRoom,
  entropyCollapse,
  consensusCollapse,
  clipHigher,
  mappVsGrpo,
  mazeGrpo,
  mazeDrGrpo,
  mazeBaseRl,
  sortEasy,
  advantageEstimators,
  cotA4,
  cotS4,
  cotA5,
  noCotA5,
  cotBlock,
  yourEstimator,
  maze5x5,
  rewardHacking,
];
