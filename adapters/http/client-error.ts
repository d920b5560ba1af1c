import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { problem, problemBody } from './problem.js';

/**
 * Requests Node refuses before Koa sees them (headers over its limit) still get the Problem
 * Details envelope, not Node's bare status line. Anything else unparseable is a plain 400.
 */
export const answerClientErrorsAsProblems = (server: Server, errorTypeBase: string): void => {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return void socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const p = tooLarge
      ? problem('HEADERS_TOO_LARGE', 'The request headers are larger than the server accepts (16 KB).')
      : problem('VALIDATION_FAILED', 'The request is not valid HTTP.');
    const body = JSON.stringify(problemBody(p, errorTypeBase, '', new Date()));
    const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${p.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
};
