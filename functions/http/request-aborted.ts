/**
 * A request that ended before its body arrived: the client went away, or our request timeout
 * cut it off. Nobody is left to answer and nothing failed on our side, so it is not an error
 * to log with a stack: the router lets it pass to the server, which logs the request as
 * aborted. Whatever the request held (an Idempotency-Key claim) is released on the way.
 */
export class RequestAborted extends Error {
  constructor(readonly reason: 'client' | 'timeout') {
    super(
      reason === 'timeout'
        ? 'The request timed out before its body arrived.'
        : 'The client closed the connection before its body arrived.',
    );
    this.name = 'RequestAborted';
  }
}
