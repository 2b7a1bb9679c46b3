// The baseline of `npm run bench`: a plain node:http server in a process of its own (never beside the
// load generator, which would slow it), answering captured bytes. Reads { "/path": { status, headers,
// body } } as JSON on stdin; prints its URL; answers every method alike, reading the request body first.
import http from 'node:http';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const routes = JSON.parse(input);
  const prepared = Object.fromEntries(Object.entries(routes).map(([p, r]) => [p, { ...r, buf: Buffer.from(r.body) }]));
  const server = http.createServer((req, res) => {
    const r = prepared[req.url];
    req.on('data', () => undefined);
    req.on('end', () => {
      if (!r) return res.writeHead(404).end();
      res.writeHead(r.status, r.headers);
      res.end(r.buf);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`raw http://127.0.0.1:${server.address().port}`));
});
