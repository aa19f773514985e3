import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { RequestIds } from '../../http/request-id.ts';
import type { StaticFiles, StaticVariant } from './static-files.ts';
import { failSafe } from './write-answer.ts';

/**
 * A built file's 200 from disk: a file the cache may hold is read whole (and kept for the next
 * request), a larger one streams with backpressure. A failed read before anything was sent is a
 * 500, after (a stream that breaks) the connection closes; either is logged and neither ends the
 * process.
 */
export function sendFromDisk(
  res: ServerResponse,
  statics: StaticFiles,
  variant: StaticVariant,
  requestId: string,
  ids: RequestIds,
  commonList: readonly string[],
  logged: (status: number, aborted?: boolean) => void,
): void {
  const headerList = [...variant.headerList, 'x-request-id', requestId];
  const failed = (error: unknown) => {
    failSafe(res, ids, error, commonList);
    logged(res.statusCode);
  };
  if (!statics.streams(variant)) {
    statics.read(variant).then((body) => {
      if (res.destroyed) {
        logged(499, true);
        return;
      }
      res.writeHead(200, headerList);
      res.end(body);
      logged(200);
    }, failed);
    return;
  }
  const stream = statics.stream(variant);
  // Headers only once the file is open, so that a file that cannot be opened still gets its 500.
  stream.once('error', failed);
  stream.once('ready', () => {
    stream.off('error', failed);
    res.writeHead(200, headerList);
    pipeline(stream, res).then(
      () => logged(200),
      (error: unknown) => {
        if (res.destroyed && !res.writableFinished && !stream.errored) logged(499, true);
        else failed(error);
      },
    );
  });
}
