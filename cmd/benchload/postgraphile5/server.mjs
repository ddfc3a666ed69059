// PostGraphile 5 over one schema of Bindery's database, for the load
// benchmark (make bench-load POSTGRAPHILE=1): the Amber preset, served by
// grafserv's Node.js adaptor, without GraphiQL, watching or query logs, in
// WORKERS cluster workers that share the port (0: this one process).
//
// Usage: node server.mjs CONNECTION SCHEMA HOST PORT WORKERS
import cluster from "node:cluster";
import { createServer } from "node:http";
import { postgraphile } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/node";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import { jsonPgSmartTags } from "postgraphile/utils";

const [connectionString, schema, host, port, workers] = process.argv.slice(2);

// Amber orders connections only by indexed columns. The nested read orders
// change requests by created_at, as with PostGraphile 4, which has no such
// rule; change_requests has no index on it.
const orderByCreatedAt = jsonPgSmartTags({
  version: 1,
  config: { class: { change_requests: { attribute: { created_at: { tags: { behavior: "+orderBy" } } } } } },
});

if (cluster.isPrimary && Number(workers) > 0) {
  for (let i = 0; i < Number(workers); i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited: ${signal || code}`);
    process.exit(1);
  });
} else {
  const preset = {
    extends: [PostGraphileAmberPreset],
    plugins: [orderByCreatedAt],
    pgServices: [makePgService({ connectionString, schemas: [schema] })],
    grafserv: { graphiql: false, watch: false },
    grafast: { explain: false },
  };
  const serv = postgraphile(preset).createServ(grafserv);
  const server = createServer();
  server.on("error", (err) => {
    console.error(err);
    process.exit(1);
  });
  await serv.addTo(server);
  server.listen(Number(port), host);
}
