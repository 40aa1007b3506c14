// Binds the port of the address in the variable STUB_BIND_VAR names, on every interface as a service
// does, and reports ready with that address; when the port is taken it prints the error and exits 1,
// as a service that fails to start does. Then waits to be stopped.
import { createServer } from 'node:net';

const address = process.env[process.env.STUB_BIND_VAR ?? ''] ?? '';
const port = Number(address.slice(address.lastIndexOf(':') + 1));
const server = createServer();
server.once('error', (error) => {
  console.error(`failed to start: ${error.message}`);
  process.exit(1);
});
server.listen(port, '0.0.0.0', () => process.send?.({ type: 'ready', name: 'binding-stub', address: `127.0.0.1:${port}` }));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
