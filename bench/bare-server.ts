// The baseline: a bare node:http server that reads a POST body and answers {"valid":true}.
import http from 'node:http';

const BODY = JSON.stringify({ valid: true });

const server = http.createServer((request, response) => {
  request.resume(); // read and discard the body, as any real handler must
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
    response.end(BODY);
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
