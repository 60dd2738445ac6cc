// Round-trip latency of `commandSafety/classify` from a Node client
// (vscode-jsonrpc, as the VS Code extension uses) to `command-safety serve`
// over stdio: N sequential requests, each sent after the previous reply.
// With --concurrency C, C requests are kept in flight at once instead (as
// several agents' requests arrive together) and the figure that matters is
// throughput, against the sequential run's.
//
//   go build -o /tmp/command-safety ./cmd/command-safety
//   cd bench/jsonrpc && npm ci && node classify.js --bin /tmp/command-safety [--n 10000] [--command 'git status'] [--log DIR] [--concurrency 8] [--log-messages]
//
// Like the extension, the client asks for each verdict's log line in its
// reply (initializationOptions.verdictLine); --log-messages has the server
// send it as a window/logMessage before the reply instead, as a client that
// does not ask gets it.
//
// The floors, measured in the same run: a bare 4 KiB write + fsync on the
// log's own directory, and the client's empty round trip (a request the
// server answers at once: classify without cwd). Their sum is the least any
// durable verdict costs this client. The script
// prints the median round trip, the floor, their ratio and their difference
// (issue 17's target: median at most one fsync + 100 µs), and the load
// average, since the project machine is shared.
//
// The server runs with HOME and XDG_* in a temporary directory, so its
// decision log (written and fsynced for every verdict before the reply, as in
// real use) and settings lookups stay there. --log DIR puts the decision log
// in DIR instead (e.g. /dev/shm, to take the disk's fsync out of the figure). Prints median, p90, p99 and max in microseconds, then
// one JSON line with the same figures.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const rpc = require('vscode-jsonrpc/node');

function parseArgs(argv) {
  const opts = { bin: process.env.COMMAND_SAFETY_BIN || '', n: 10000, warmup: 200, command: 'git status', log: '', concurrency: 1, fsyncs: 2000, logMessages: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--bin') opts.bin = next();
    else if (a === '--n') opts.n = Number(next());
    else if (a === '--warmup') opts.warmup = Number(next());
    else if (a === '--command') opts.command = next();
    else if (a === '--log') opts.log = next();
    else if (a === '--concurrency') opts.concurrency = Number(next());
    else if (a === '--log-messages') opts.logMessages = true;
    else if (a === '--fsyncs') opts.fsyncs = Number(next());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.bin) throw new Error('pass --bin PATH (or COMMAND_SAFETY_BIN) to a built command-safety');
  if (!Number.isInteger(opts.n) || opts.n < 1) throw new Error('--n must be a positive integer');
  return opts;
}

// fsyncFloor measures n bare 4 KiB writes + fsync of one file in dir, as
// SQLite's commit does to its WAL, and returns their median in µs.
function fsyncFloor(dir, n) {
  const file = path.join(dir, `fsync-floor-${process.pid}.tmp`);
  const fd = fs.openSync(file, 'w');
  const buf = Buffer.alloc(4096, 1);
  const lat = new Float64Array(n);
  try {
    for (let i = 0; i < n; i++) {
      const start = process.hrtime.bigint();
      fs.writeSync(fd, buf, 0, buf.length, (i % 256) * 4096);
      fs.fsyncSync(fd);
      lat[i] = Number(process.hrtime.bigint() - start) / 1000;
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
  return percentile(Array.from(lat).sort((a, b) => a - b), 50);
}

function loadavg() {
  return os.loadavg().map((x) => x.toFixed(2)).join(' ');
}

function percentile(sorted, p) {
  const i = Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100));
  return sorted[i];
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bench-'));
  const home = path.join(tmp, 'home');
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(ws, { recursive: true });

  const args = ['serve'];
  if (opts.log) args.push('--log', path.join(opts.log, `cs-bench-${process.pid}.db`));
  const child = spawn(path.resolve(opts.bin), args, {
    cwd: ws,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
    },
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));

  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  let logMessages = 0;
  let lines = 0; // verdict lines in replies
  conn.onNotification('window/logMessage', () => { logMessages++; });
  conn.listen();

  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: 'file://' + ws,
    capabilities: {},
    // As the extension does: each verdict's line in its reply (one message
    // per verdict); --log-messages measures a window/logMessage per verdict.
    initializationOptions: { agent: 'bench', verdictLine: !opts.logMessages },
  });
  await conn.sendNotification('initialized', {});

  const params = { command: opts.command, cwd: ws };
  let decision = '';
  for (let i = 0; i < opts.warmup; i++) {
    decision = (await conn.sendRequest('commandSafety/classify', params)).decision;
  }
  // The client's own floor: a round trip the server answers at once, without
  // classifying or logging (classify without cwd: -32602 Invalid params).
  const emptyLat = new Float64Array(Math.max(1, Math.min(opts.n, 5000)));
  for (let i = 0; i < emptyLat.length; i++) {
    const start = process.hrtime.bigint();
    try {
      await conn.sendRequest('commandSafety/classify', { command: opts.command });
      throw new Error('classify without cwd was answered with a verdict');
    } catch (err) {
      if (!(err instanceof rpc.ResponseError) || err.code !== -32602) throw err;
    }
    emptyLat[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  const emptyRoundTrip = percentile(Array.from(emptyLat).sort((a, b) => a - b), 50);
  const logDir = opts.log || path.join(home, '.local', 'state', 'ml-ai');
  const loadBefore = loadavg();
  const floorBefore = fsyncFloor(logDir, Math.ceil(opts.fsyncs / 2));
  const lat = new Float64Array(opts.n);
  const t0 = process.hrtime.bigint();
  let sent = 0;
  const worker = async () => {
    while (sent < opts.n) {
      const i = sent++;
      const start = process.hrtime.bigint();
      const v = await conn.sendRequest('commandSafety/classify', params);
      lat[i] = Number(process.hrtime.bigint() - start) / 1000;
      if (v.line) lines++;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const totalMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const floorAfter = fsyncFloor(logDir, Math.floor(opts.fsyncs / 2));
  const floor = (floorBefore + floorAfter) / 2;
  const loadAfter = loadavg();
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  const code = await exited;
  conn.dispose();
  fs.rmSync(tmp, { recursive: true, force: true });
  if (opts.log) {
    for (const ext of ['', '-wal', '-shm']) fs.rmSync(path.join(opts.log, `cs-bench-${process.pid}.db${ext}`), { force: true });
  }

  const sorted = Array.from(lat).sort((a, b) => a - b);
  const res = {
    n: opts.n,
    command: opts.command,
    decision,
    medianMicros: Math.round(percentile(sorted, 50)),
    p90Micros: Math.round(percentile(sorted, 90)),
    p99Micros: Math.round(percentile(sorted, 99)),
    maxMicros: Math.round(sorted[sorted.length - 1]),
    totalMs: Math.round(totalMs),
    perSecond: Math.round((opts.n / totalMs) * 1000),
    concurrency: opts.concurrency,
    fsyncFloorMicros: Math.round(floor),
    medianOverFloor: Number((percentile(sorted, 50) / floor).toFixed(2)),
    medianMinusFloorMicros: Math.round(percentile(sorted, 50) - floor),
    emptyRoundTripMicros: Math.round(emptyRoundTrip),
    leastDurableMicros: Math.round(emptyRoundTrip + floor),
    loadavg: [loadBefore, loadAfter],
    logMessages,
    lines,
    exitCode: code,
  };
  // Every verdict's line reached the client, in its reply or as a logMessage.
  const seen = opts.logMessages ? logMessages : lines;
  if (seen < opts.n) throw new Error(`${seen} verdict lines for ${opts.n} verdicts (${opts.logMessages ? 'logMessages' : 'lines in replies'})`);
  const how = opts.concurrency > 1 ? `${opts.concurrency} in flight at once` : 'sequential';
  console.log(`${res.n} classify round trips, ${how} (${JSON.stringify(res.command)} -> ${decision}), vscode-jsonrpc over stdio:`);
  console.log(`  median ${res.medianMicros} µs, p90 ${res.p90Micros} µs, p99 ${res.p99Micros} µs, max ${res.maxMicros} µs, total ${res.totalMs} ms (${res.perSecond}/s)`);
  console.log(`  floor: 4 KiB write + fsync in ${logDir}: median ${res.fsyncFloorMicros} µs (before ${Math.round(floorBefore)}, after ${Math.round(floorAfter)})`);
  console.log(`  median = ${res.medianOverFloor} × floor = floor + ${res.medianMinusFloorMicros} µs; load average ${loadBefore} -> ${loadAfter}`);
  console.log(`  client floor: an empty round trip (answered at once, no classify, no log) ${res.emptyRoundTripMicros} µs; with the fsync floor ${res.leastDurableMicros} µs, the least a durable verdict costs this client (median = that + ${res.medianMicros - res.leastDurableMicros} µs)`);
  console.log(JSON.stringify(res));
  if (code !== 0) {
    console.error(`server exited with ${code}:\n${stderr}`);
    process.exitCode = 1;
  }
  // The warm-up's verdicts send theirs too (the lines in replies are
  // checked above).
  if (opts.logMessages && logMessages < opts.n + opts.warmup) {
    console.error(`expected one logMessage per verdict, got ${logMessages}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
