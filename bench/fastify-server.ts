// A reference for the benchmark: the validation route's shape (same body and response
// schemas) on a bare Fastify instance, answering {"valid":true} without touching a
// database. The distance from bare node:http to this row is the framework's own cost;
// the distance from this row to the service's rows is the service's.
import Fastify from 'fastify';
import { ValidateBodySchema, ValidateResultSchema } from '../src/modules/licenses/licenses.schemas.js';

const app = Fastify({ logger: { level: 'warn' } });
app.post('/', { schema: { body: ValidateBodySchema, response: { 200: ValidateResultSchema } } }, async () => ({ valid: true }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
