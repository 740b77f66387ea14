// The row writer's books (store/row-writer-books.ts): what a fold of every row is told of the log,
// checked against the same answer worked out row by row from a list of the rows.
import { describe, expect, it } from 'vitest';
import { createRowWriterBooks } from '../store/row-writer-books.js';
import { RUN } from '../store/rowid-runs.js';

type Row = { device: number; key: number; ts: number; rowid: number };

/** The runs' rowids, one by one. */
const rowidsOf = (json: string) =>
  (JSON.parse(json) as number[]).flatMap((run) => Array.from({ length: run % RUN }, (_, i) => Math.floor(run / RUN) + i));

/** Every row by device (ascending) in log order, and each (device, key)'s row of greatest ts, the later on a tie. */
function expected(rows: Row[]) {
  const byDevice = [...rows].sort((a, b) => a.device - b.device || a.rowid - b.rowid);
  const latest = new Map<string, Row>();
  for (const row of byDevice) {
    const pair = `${row.device} ${row.key}`;
    const seen = latest.get(pair);
    if (!seen || row.ts >= seen.ts) latest.set(pair, row);
  }
  const latestInOrder = [...new Set(byDevice.map((r) => `${r.device} ${r.key}`))].map((pair) => latest.get(pair)!.rowid);
  return { rows: byDevice.map((r) => r.rowid), latest: latestInOrder };
}

/** Books, and the rows booked in them, one after the other from rowid 1. */
function booked(capacity: number) {
  const books = createRowWriterBooks(capacity);
  const rows: Row[] = [];
  let rowid = 1;
  const add = (device: number, key: number, ts: number) => {
    const row = { device, key, ts, rowid: rowid++ };
    rows.push(row);
    expect(books.add(device, key, ts, row.rowid)).toBe(true);
  };
  return { books, rows, add };
}

describe('the row writer\'s books', () => {
  it('give every row by device in log order, as runs, and each key\'s latest row, for devices past 16 bits too', () => {
    const books = createRowWriterBooks(4);
    const rows: Row[] = [];
    let rowid = 5;
    // Messages of 3 keys from devices in a scrambled order, numbers on both sides of 65,536; a skipped
    // rowid now and then (another device's row taken out); equal and older ts among a key's rows.
    const devices = [70_000, 3, 65_536, 1, 3, 200_000, 1, 70_000, 2 ** 31 - 1, 1];
    for (let round = 0; round < 30; round++) {
      for (const device of devices) {
        for (let key = 1; key <= 3; key++) {
          const row = { device, key, ts: 100 + ((round * 7 + key) % 11), rowid: rowid++ };
          rows.push(row);
          expect(books.add(row.device, row.key, row.ts, row.rowid)).toBe(true);
        }
        if (round % 4 === 0) rowid++;
      }
    }
    const asked: number[][] = [];
    const runs = books.runs((withRows) => {
      asked.push(withRows);
      return withRows;
    });
    expect(asked).toEqual([[1, 3, 65_536, 70_000, 200_000, 2 ** 31 - 1]]);
    expect(rowidsOf(runs.rows)).toEqual(expected(rows).rows);
    expect(rowidsOf(runs.latest)).toEqual(expected(rows).latest);
    // A run holds up to RUN - 1 rows: one device's 200 consecutive rows take four.
    const one = createRowWriterBooks(16);
    for (let i = 0; i < 200; i++) one.add(9, i % 2, i, 1000 + i);
    expect(JSON.parse(one.runs((d) => d).rows)).toEqual([1000 * RUN + 63, 1063 * RUN + 63, 1126 * RUN + 63, 1189 * RUN + 11]);
    expect(books.rows()).toBe(rows.length);
  });

  it('leave out the rows of a device taken before they were, and of devices that no longer exist', () => {
    const { books, rows, add } = booked(1024);
    add(1, 1, 10);
    add(2, 1, 10);
    add(1, 1, 20);
    books.take(1);
    add(1, 2, 5);
    add(3, 1, 1);
    add(2, 1, 30);
    books.take(3);
    expect(books.rows()).toBe(3);
    const left = rows.filter((r) => (r.device === 1 && r.rowid > 3) || r.device === 2);
    expect(rowidsOf(books.runs((d) => d).rows)).toEqual(expected(left).rows);
    // Device 2 deleted meanwhile: only device 1's row after its take.
    const runs = books.runs((withRows) => withRows.filter((d) => d !== 2));
    expect(rowidsOf(runs.rows)).toEqual([4]);
    expect(rowidsOf(runs.latest)).toEqual([4]);
  });

  it('cut a generation into slices of whole devices in ascending order, leave out what its slices applied, and drop its rows at its end', () => {
    const { books, rows, add } = booked(4);
    // Devices 1-9 in a scrambled order, device 5 with twice as many rows as the others.
    for (let round = 0; round < 4; round++) for (const device of [7, 2, 9, 5, 1, 5, 8, 3, 6, 4]) add(device, round % 3, round);
    expect(books.nextSlice).toBe(0);
    expect(books.startGeneration(3)).toBe(40);
    const generation = [...rows];
    // Rows after the generation's start, and a take, are not the generation's.
    add(1, 0, 9);
    books.take(3);
    const slices: { rows: number[]; latest: number[]; lastDevice: number }[] = [];
    while (books.nextSlice > 0) {
      const { rows: sliceRows, latest, lastDevice } = books.slice((d) => d.filter((n) => n !== 8));
      slices.push({ rows: rowidsOf(sliceRows), latest: rowidsOf(latest), lastDevice });
      // Midway, a fold of every row takes what no slice applied: the generation's later devices, and the rows after it.
      if (slices.length === 1) {
        const left = rows.filter((r) => r.device > lastDevice || r.rowid > 40).filter((r) => r.device !== 3 || r.rowid > 41);
        expect(rowidsOf(books.runs((d) => d).rows)).toEqual(expected(left).rows);
      }
    }
    // About 13 rows a slice, each cut moved on to the end of a device's rows (devices 1-4 hold 16, 5-6 twelve).
    expect(slices.map((s) => s.lastDevice)).toEqual([4, 6, 9]);
    const ofDevices = (from: number, to: number) => generation.filter((r) => r.device >= from && r.device <= to && r.device !== 3 && r.device !== 8);
    expect(slices.map((s) => s.rows)).toEqual([expected(ofDevices(1, 4)).rows, expected(ofDevices(5, 6)).rows, expected(ofDevices(7, 9)).rows]);
    expect(slices.map((s) => s.latest)).toEqual([expected(ofDevices(1, 4)).latest, expected(ofDevices(5, 6)).latest, expected(ofDevices(7, 9)).latest]);
    expect(books.rows()).toBe(37);
    books.endGeneration();
    // Left: the row after the generation; device 3's take (before row 41) no longer counts.
    expect([books.nextSlice, books.rows(), rowidsOf(books.runs((d) => d).rows)]).toEqual([0, 1, [41]]);
    add(3, 0, 10);
    expect(rowidsOf(books.runs((d) => d).rows)).toEqual([41, 42]);
  });

  it('name the rows of a device taken, since its last take and after its generation, each rowid once', () => {
    const books = createRowWriterBooks(2);
    const add = (device: number, rowid: number) => expect(books.add(device, 1, rowid, rowid)).toBe(true);
    for (const [device, rowid] of [[1, 1], [2, 2], [1, 3], [1, 4], [3, 5]]) add(device, rowid);
    expect(rowidsOf(books.take(1)!)).toEqual([1, 3, 4]);
    // After its take, only its later rows; one of them took the rowid of a row that left the log.
    add(1, 6);
    add(1, 4);
    expect(rowidsOf(books.take(1)!)).toEqual([4, 6]);
    expect(books.take(1)).toBe('[]');
    // A rowid booked twice for a device (its row left unbooked, and a new one took its rowid): named once.
    add(5, 9);
    add(5, 9);
    expect(JSON.parse(books.take(5)!)).toEqual([9 * RUN + 1]);
    // A generation's rows leave the books at its end; the rows after it stay chained.
    add(2, 7);
    books.startGeneration(1);
    add(2, 8);
    add(3, 10);
    add(2, 11);
    books.slice((d) => d);
    books.endGeneration();
    expect([rowidsOf(books.take(2)!), rowidsOf(books.take(3)!)]).toEqual([[8, 11], [10]]);
    // Past CHAINED_DEVICES, no chain: the fold of the device finds its rows in the log itself.
    add(2 ** 22, 12);
    expect(books.take(2 ** 22)).toBeUndefined();
    expect(rowidsOf(books.runs((d) => d).rows)).toEqual([]);
  });

  it('refuse a row they could not name in a run, whose device is not a 32-bit integer, or whose key id is past 2^20', () => {
    const books = createRowWriterBooks(8);
    expect(books.add(1, 1, 0, 2 ** 53 / RUN)).toBe(false);
    expect(books.add(2 ** 31, 1, 0, 1)).toBe(false);
    expect(books.add(-1, 1, 0, 1)).toBe(false);
    expect(books.add(1.5, 1, 0, 1)).toBe(false);
    expect(books.add(1, 2 ** 20 + 1, 0, 1)).toBe(false);
    expect(books.add(1, -1, 0, 1)).toBe(false);
    expect(books.add(1, 1, 0, 2 ** 53 / RUN - 1)).toBe(true);
  });
});
