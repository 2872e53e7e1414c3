// Run named SQL queries in DuckDB (npm @duckdb/node-api) and print their rows.
//   node duckdb-run.cjs NODE_MODULES_DIR < {"name": "SQL", ...}
// prints {"name": [[col, ...], ...], ...}; every value as DuckDB's JSON form
// (BIGINT and HUGEINT as strings, so figures stay exact). Runs in the current
// directory, where the queries find their .ndjson files.
'use strict';
const path = require('path');
// resolve, not join: require() takes a relative name without './' for a package
// name, so NODE_MODULES_DIR given relative to the current directory would not load.
const { DuckDBInstance } = require(path.resolve(process.argv[2], '@duckdb', 'node-api'));

async function main() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const queries = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const out = {};
  for (const [name, sql] of Object.entries(queries)) {
    const reader = await con.runAndReadAll(sql);
    out[name] = reader.getRowsJson();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + '\n');
  process.exit(1);
});
