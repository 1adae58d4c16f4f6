// The devices every boot has, at their Linux numbers (devices.txt).

import { makedev } from '../../abi/stat.js';
import type { DeviceTable } from './device.js';
import { fullDevice } from './full.js';
import { nullDevice } from './null.js';
import { randomDevice } from './random.js';
import { ttyDevice } from './tty.js';
import { zeroDevice } from './zero.js';

/** Name, rdev and driver of each standard node, for devfs to create them. */
export const STANDARD_DEVICES = [
  { name: 'null', rdev: makedev(1, 3), dev: nullDevice },
  { name: 'zero', rdev: makedev(1, 5), dev: zeroDevice },
  { name: 'full', rdev: makedev(1, 7), dev: fullDevice },
  { name: 'random', rdev: makedev(1, 8), dev: randomDevice },
  { name: 'urandom', rdev: makedev(1, 9), dev: randomDevice },
  { name: 'tty', rdev: makedev(5, 0), dev: ttyDevice },
] as const;

export function registerStandardDevices(table: DeviceTable): void {
  for (const { rdev, dev } of STANDARD_DEVICES) table.register(rdev, dev);
}
