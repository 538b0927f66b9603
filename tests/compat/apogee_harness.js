'use strict';
// Shared helpers for the compatibility tests: start Apogee binaries on free loopback
// ports, and speak raw RocketMQ remoting frames (for the requests a client library does
// not send, such as REGISTER_BROKER from a fake broker).
//
// Frame: int32 L (excludes itself) | int32 (serializeType << 24 | headerLength) |
//        JSON header | body, all big-endian.

const assert = require('assert');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

function binDir() {
  const dir = process.env.APOGEE_BIN_DIR;
  assert(dir, 'APOGEE_BIN_DIR must point at the directory holding the Apogee binaries');
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise(resolve => setTimeout(resolve, ms));
}

async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise(resolve => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

// Starts mqnamesrv with its own config, KV file and log directory.
async function startNamesrv(extraProps = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apogee-compat-'));
  const port = await freePort();
  const props = Object.assign({
    listenPort: port,
    bindAddress: '127.0.0.1',
    kvConfigPath: path.join(dir, 'kvConfig.json'),
  }, extraProps);
  const conf = path.join(dir, 'namesrv.conf');
  fs.writeFileSync(conf, Object.entries(props).map(([k, v]) => `${k}=${v}\n`).join(''));
  const logPath = path.join(dir, 'namesrv.out');
  const out = fs.openSync(logPath, 'w');
  const child = spawn(path.join(binDir(), 'mqnamesrv'), [ '-c', conf ], {
    stdio: [ 'ignore', out, out ],
    env: Object.assign({}, process.env, { APOGEE_LOG_DIR: dir }),
  });
  const exited = new Promise(resolve => child.once('exit', (code, signal) => resolve({ code, signal })));
  try {
    await waitForPort(port, 10000);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${e.message}\n${fs.readFileSync(logPath, 'utf8')}`);
  }
  return {
    port,
    addr: `127.0.0.1:${port}`,
    log: () => fs.readFileSync(logPath, 'utf8'),
    // SIGTERM, then the exit status.
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      const status = await exited;
      clearTimeout(timer);
      fs.rmSync(dir, { recursive: true, force: true });
      return status;
    },
  };
}

// zlib CRC-32 (java.util.zip.CRC32); RocketMQ sends it with the top bit cleared.
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = (c & 1) ? (0xEDB88320 ^ (c >>> 1)) : (c >>> 1);
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32Masked(buf) {
  let c = 0xFFFFFFFF;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xFF] ^ (c >>> 8);
  return ((c ^ 0xFFFFFFFF) >>> 0) & 0x7FFFFFFF;
}

function encodeFrame(header, body) {
  const h = Buffer.from(JSON.stringify(header), 'utf8');
  const b = body ? Buffer.from(body) : Buffer.alloc(0);
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32BE(4 + h.length + b.length, 0);
  prefix.writeUInt32BE(h.length, 4);  // serialize type 0 (JSON)
  return Buffer.concat([ prefix, h, b ]);
}

// One raw connection that sends requests and collects the responses by opaque.
class RawRemoting {
  constructor(port) {
    this.port = port;
    this.opaque = 1000;
    this.pending = new Map();
    this.buf = Buffer.alloc(0);
  }

  connect() {
    return new Promise((resolve, reject) => {
      this.sock = net.connect(this.port, '127.0.0.1', resolve);
      this.sock.once('error', reject);
      this.sock.on('data', data => this._onData(data));
    });
  }

  _onData(data) {
    this.buf = Buffer.concat([ this.buf, data ]);
    while (this.buf.length >= 4) {
      const len = this.buf.readUInt32BE(0);
      if (this.buf.length < 4 + len) return;
      const frame = this.buf.subarray(4, 4 + len);
      this.buf = this.buf.subarray(4 + len);
      const word = frame.readUInt32BE(0);
      assert.strictEqual(word >>> 24, 0, 'response header must be JSON (serialize type 0)');
      const headerLen = word & 0xFFFFFF;
      const header = JSON.parse(frame.subarray(4, 4 + headerLen).toString('utf8'));
      const body = frame.subarray(4 + headerLen);
      const waiter = this.pending.get(header.opaque);
      if (waiter) {
        this.pending.delete(header.opaque);
        waiter({ header, body });
      }
    }
  }

  // Sends a request the way a Java client shapes it; resolves with { header, body }.
  request(code, extFields, body, version = 401, timeoutMs = 5000) {
    const opaque = this.opaque++;
    const header = { code, extFields, flag: 0, language: 'JAVA', opaque, serializeTypeCurrentRPC: 'JSON', version };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`request ${code} timed out`)), timeoutMs);
      this.pending.set(opaque, r => { clearTimeout(timer); resolve(r); });
      this.sock.write(encodeFrame(header, body));
    });
  }

  close() {
    this.sock.destroy();
  }
}

// REGISTER_BROKER as a 4.9 Java broker sends it (RegisterBrokerBody JSON, bodyCrc32).
function registerBrokerRequest({ cluster, brokerName, brokerId, brokerAddr, topics }) {
  const topicConfigTable = {};
  for (const t of topics) {
    topicConfigTable[t.name] = {
      order: false, perm: t.perm || 6, readQueueNums: t.queues, topicFilterType: 'SINGLE_TAG',
      topicName: t.name, topicSysFlag: 0, writeQueueNums: t.queues,
    };
  }
  const body = Buffer.from(JSON.stringify({
    filterServerList: [],
    topicConfigSerializeWrapper: { dataVersion: { counter: 1, timestamp: Date.now() }, topicConfigTable },
  }));
  const extFields = {
    brokerAddr, brokerId: String(brokerId), brokerName, clusterName: cluster,
    compressed: 'false', haServerAddr: brokerAddr.replace(/:(\d+)$/, (m, p) => `:${Number(p) + 1}`),
    bodyCrc32: String(crc32Masked(body)),
  };
  return { extFields, body };
}

// Runs named checks in order, prints each, and exits non-zero when one fails.
async function runChecks(name, fn) {
  let passed = 0;
  let failed = 0;
  const check = async (what, body) => {
    try {
      await body();
      passed++;
      console.log(`ok   - ${what}`);
    } catch (e) {
      failed++;
      console.log(`FAIL - ${what}\n${e && e.stack ? e.stack : e}`);
    }
  };
  const watchdog = setTimeout(() => {
    console.log(`FAIL - ${name}: still running after 120 s`);
    process.exit(1);
  }, 120000);
  try {
    await fn(check);
  } catch (e) {
    failed++;
    console.log(`FAIL - ${name}: ${e && e.stack ? e.stack : e}`);
  }
  clearTimeout(watchdog);
  console.log(`${name}: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

module.exports = {
  freePort, sleep, waitForPort, startNamesrv, crc32Masked, encodeFrame, RawRemoting,
  registerBrokerRequest, runChecks,
};
