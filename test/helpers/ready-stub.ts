// Reports ready at once and waits to be stopped: lets a test start one more gateway against the
// services the suite already runs.
process.send?.({ type: 'ready', name: 'stub', address: '127.0.0.1:0' });
const keepAlive = setInterval(() => {}, 60_000);
const stop = () => {
  clearInterval(keepAlive);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
