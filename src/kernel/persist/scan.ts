// Reading the frames of a checkpoint or journal, and telling what went wrong
// where one does not check out (decision 0033):
//  - torn: the bytes end inside a frame (its header, or the payload its intact
//    header announces). That is what a crash during an append leaves, and the
//    commit it held never returned, so it is dropped.
//  - damaged: a complete frame whose checksum fails, or bytes that are not a
//    frame. No crash leaves that; the frames after it may depend on it, so
//    the caller refuses the layer rather than drop them (repair.ts).

import { frameCrc32 as crc32 } from './checksum.js';
import { type Commit, decodePayload, FRAME_MAGIC, HEADER, MAGIC, NewerLayerError } from './format.js';

export interface Frame {
  offset: number;
  end: number;
  commit: Commit;
}

export interface Damage {
  /** Byte offset of the first frame that does not check out. */
  offset: number;
  reason: string;
  /** Intact frames found after it by scanning for frame headers (kept in the damaged copy, not replayed). */
  later: number;
  /** The highest sequence number seen anywhere in the bytes (a repair's checkpoint must be newer). */
  maxSeq: number;
}

export interface Scan {
  /** The intact frames before any problem, in order. */
  frames: Frame[];
  /** Where those end. */
  validBytes: number;
  /** The bytes end inside a frame (a crash cut its append short). */
  torn: boolean;
  damage: Damage | null;
  /** Some frame is of schema 1 (a layer to rewrite in the current format). */
  legacy: boolean;
}

/**
 * The frames of `buf`. A damaged frame whose intact header says it is no newer
 * than `skipThrough` (a journal frame the checkpoint already holds, left over
 * when a crash came between writing the checkpoint and emptying the journal)
 * is passed over, since nothing needs it. With `share`, the commits' file data
 * are views of `buf` (decodePayload): only for a buffer the caller owns.
 */
export function scanFrames(buf: Uint8Array, skipThrough = -Infinity, share = false): Scan {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const frames: Frame[] = [];
  let sawV2 = false;
  let legacy = false;
  let at = 0;
  const stop = (torn: boolean, reason?: string, seq = 0): Scan => ({
    frames, validBytes: at, torn, legacy,
    damage: reason === undefined ? null : { offset: at, reason, ...laterFrames(buf, at + 1, frames.reduce((m, f) => Math.max(m, f.commit.seq), seq)) },
  });
  while (at < buf.length) {
    const rest = buf.length - at;
    if (rest < 4) return stop(true);
    let payload: Uint8Array;
    let end: number;
    let seq: number | null = null;
    if (view.getUint32(at, true) === FRAME_MAGIC) {
      if (rest < HEADER) return stop(true);
      if (crc32(buf.subarray(at, at + 20)) !== view.getUint32(at + 20, true)) return stop(false, 'frame header checksum mismatch');
      end = at + HEADER + view.getUint32(at + 4, true);
      seq = view.getFloat64(at + 8, true);
      if (end > buf.length) return stop(true);
      payload = buf.subarray(at + HEADER, end);
      if (crc32(payload) !== view.getUint32(at + 16, true)) {
        if (seq <= skipThrough) {
          at = end;
          continue;
        }
        return stop(false, `checksum mismatch in commit ${seq}`, seq);
      }
      sawV2 = true;
    } else {
      // Schema 1: u32 length, u32 crc, payload (which starts with MAGIC). Only ever before schema 2 frames.
      if (sawV2) return stop(false, 'not a frame header');
      if (rest < 12) return stop(true);
      if (view.getUint32(at + 8, true) !== MAGIC) return stop(false, 'not a frame header');
      end = at + 8 + view.getUint32(at, true);
      if (end > buf.length) return stop(true);
      payload = buf.subarray(at + 8, end);
      if (crc32(payload) !== view.getUint32(at + 4, true)) return stop(false, 'checksum mismatch');
      legacy = true;
    }
    let commit: Commit;
    try {
      commit = decodePayload(payload, share);
    } catch (e) {
      if (e instanceof NewerLayerError) throw e;
      return stop(false, (e as Error).message);
    }
    if (seq !== null && commit.seq !== seq) return stop(false, 'frame header and payload disagree');
    frames.push({ offset: at, end, commit });
    at = end;
  }
  return stop(false);
}

/** Intact schema 2 frames at or after `from`, found by their headers; and the highest sequence number of any frame. */
function laterFrames(buf: Uint8Array, from: number, seenSeq: number): { later: number; maxSeq: number } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let maxSeq = seenSeq;
  let later = 0;
  for (let at = from; at + HEADER <= buf.length; ) {
    if (view.getUint32(at, true) !== FRAME_MAGIC || crc32(buf.subarray(at, at + 20)) !== view.getUint32(at + 20, true)) {
      at++;
      continue;
    }
    const end = at + HEADER + view.getUint32(at + 4, true);
    if (end > buf.length || crc32(buf.subarray(at + HEADER, end)) !== view.getUint32(at + 16, true)) {
      at++;
      continue;
    }
    later++;
    maxSeq = Math.max(maxSeq, view.getFloat64(at + 8, true));
    at = end;
  }
  return { later, maxSeq };
}
