// A small HTTP client over node:http for tests: JSON and raw bodies, Bearer/Basic auth,
// and a chosen source address (localAddress) to act as distinct client IPs.
import http from 'node:http';

export interface TestResponse<T = any> {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: T;
}

export interface RequestOptions {
  body?: unknown;
  /** sent verbatim; set content-type in headers */
  rawBody?: string | Buffer;
  form?: Record<string, string>;
  multipart?: Record<string, string>;
  token?: string;
  basic?: [string, string];
  headers?: Record<string, string>;
  localAddress?: string;
}

export function request(baseUrl: string, method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
  const url = new URL(path, baseUrl);
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  let payload: Buffer | undefined;
  if (opts.body !== undefined) {
    payload = Buffer.from(JSON.stringify(opts.body));
    headers['content-type'] ??= 'application/json';
  } else if (opts.form !== undefined) {
    payload = Buffer.from(new URLSearchParams(opts.form).toString());
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (opts.multipart !== undefined) {
    const boundary = `----test${Date.now().toString(16)}`;
    const parts = Object.entries(opts.multipart).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    payload = Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
    headers['content-type'] ??= `multipart/form-data; boundary=${boundary}`;
  } else if (opts.rawBody !== undefined) {
    payload = Buffer.isBuffer(opts.rawBody) ? opts.rawBody : Buffer.from(opts.rawBody);
  }
  if (payload) headers['content-length'] = String(payload.length);
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.basic) headers.authorization = `Basic ${Buffer.from(opts.basic.join(':')).toString('base64')}`;

  return new Promise((resolve, reject) => {
    const req = http.request(
      { method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers, agent: false, localAddress: opts.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
