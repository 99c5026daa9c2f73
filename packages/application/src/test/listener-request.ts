import { request } from 'node:http';

/** What the listener answered: an HTTP response, or a switch of protocol. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  upgraded: boolean;
}

/** One HTTP request to the listener on `port` with exactly these headers (Host included). */
export function listenerRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port, path, method, headers, setHost: false });
    call.once('error', reject);
    call.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        body += text;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          upgraded: false,
        }),
      );
    });
    call.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: '',
        upgraded: true,
      });
    });
    call.end();
  });
}
