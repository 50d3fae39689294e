/**
 * A second Charla process for test/pglite-lock.test.ts: opens the embedded database in a data dir
 * (taking its lock), prints `ready <pid>` once it answers, and holds it until killed.
 *
 * `node bin/run-ts.js test/helpers/lock-holder.ts <dataDir>`
 */
import { openStore } from '../../engine/store/connect.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: lock-holder.ts <dataDir>');
const store = await openStore({ dataDir });
await store.raw.executeSql('SELECT 1');
process.stdout.write(`ready ${process.pid}\n`);
setInterval(() => {}, 60_000); // held until the test kills this process
