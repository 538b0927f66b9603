'use strict';
// A real single-process-per-role cluster for the compatibility tests: one mqnamesrv and
// one or more mqbroker processes on free loopback ports, each with a temp data directory,
// all stopped (SIGTERM, then SIGKILL after a grace period) by Cluster.stop(), which the
// tests call from `finally` so the servers die even when a check fails.

const assert = require('assert');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { startNamesrv, waitForPort, sleep, RawRemoting } = require('../apogee_harness');

const UPDATE_AND_CREATE_TOPIC = 17;
const GET_ROUTEINFO_BY_TOPIC = 105;

function binDir() {
  const dir = process.env.APOGEE_BIN_DIR;
  assert(dir, 'APOGEE_BIN_DIR must point at the directory holding the Apogee binaries');
  return dir;
}

function portIsFree(port) {
  return new Promise(resolve => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

// A broker needs listenPort, listenPort - 2 (the "VIP" channel) and listenPort + 1 (HA).
async function freeBrokerPort() {
  for (let i = 0; i < 200; i++) {
    const port = 20000 + Math.floor(Math.random() * 40000);
    if (await portIsFree(port) && await portIsFree(port - 2) && await portIsFree(port + 1)) return port;
  }
  throw new Error('no free port triple for a broker');
}

class BrokerProc {
  constructor({ namesrvAddr, brokerName, extraProps }) {
    this.namesrvAddr = namesrvAddr;
    this.brokerName = brokerName;
    this.extraProps = extraProps || {};
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `apogee-${brokerName}-`));
    this.starts = 0;
  }

  get addr() { return `127.0.0.1:${this.port}`; }

  async start() {
    if (!this.port) this.port = await freeBrokerPort();
    const props = Object.assign({
      brokerClusterName: 'DefaultCluster',
      brokerName: this.brokerName,
      brokerId: 0,
      brokerIP1: '127.0.0.1',
      bindAddress: '127.0.0.1',
      listenPort: this.port,
      storePathRootDir: path.join(this.dir, 'store'),
      mappedFileSizeCommitLog: 16 * 1024 * 1024,
      mappedFileSizeConsumeQueue: 20 * 20000,
      maxHashSlotNum: 50000,
      maxIndexNum: 200000,
    }, this.extraProps);
    const conf = path.join(this.dir, 'broker.conf');
    fs.writeFileSync(conf, Object.entries(props).map(([ k, v ]) => `${k}=${v}\n`).join(''));
    this.logPath = path.join(this.dir, `broker-${++this.starts}.out`);
    const out = fs.openSync(this.logPath, 'w');
    this.child = spawn(path.join(binDir(), 'mqbroker'), [ '-c', conf, '-n', this.namesrvAddr ], {
      stdio: [ 'ignore', out, out ],
      env: Object.assign({}, process.env, { APOGEE_LOG_DIR: path.join(this.dir, 'logs') }),
    });
    fs.closeSync(out);
    this.exited = new Promise(resolve => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    try {
      await waitForPort(this.port, 20000);
    } catch (e) {
      this.child.kill('SIGKILL');
      throw new Error(`${e.message}\n${this.log()}`);
    }
  }

  log() {
    try { return fs.readFileSync(this.logPath, 'utf8'); } catch (e) { return ''; }
  }

  // SIGTERM (or `signal`), SIGKILL after 15 s; resolves with { code, signal }.
  async stop(signal = 'SIGTERM') {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) {
      return this.child ? this.exited : { code: 0, signal: null };
    }
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15000);
    const status = await this.exited;
    clearTimeout(timer);
    return status;
  }

  // UPDATE_AND_CREATE_TOPIC on this broker; throws with the code and remark on failure.
  async createTopic(topic, queues = 4) {
    const raw = new RawRemoting(this.port);
    await raw.connect();
    try {
      const { header } = await raw.request(UPDATE_AND_CREATE_TOPIC, {
        topic, defaultTopic: 'TBW102', readQueueNums: String(queues), writeQueueNums: String(queues),
        perm: '6', topicFilterType: 'SINGLE_TAG', topicSysFlag: '0', order: 'false',
      });
      if (header.code !== 0) throw new Error(`UPDATE_AND_CREATE_TOPIC ${topic}: code ${header.code} ${header.remark}`);
    } finally {
      raw.close();
    }
  }

  cleanup() {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

class Cluster {
  constructor() {
    this.brokers = [];
  }

  async startNamesrv() {
    this.namesrv = await startNamesrv();
    return this.namesrv;
  }

  async addBroker(brokerName = 'broker-a', extraProps = {}) {
    assert(this.namesrv, 'start the NameServer first');
    const b = new BrokerProc({ namesrvAddr: this.namesrv.addr, brokerName, extraProps });
    this.brokers.push(b);
    await b.start();
    return b;
  }

  // A SLAVE (brokerId 1) of `master`'s broker set, replicating from its HA port
  // (listenPort + 1) through haMasterAddress.
  async addSlave(master, extraProps = {}) {
    assert(this.namesrv, 'start the NameServer first');
    const props = Object.assign({
      brokerId: 1, brokerRole: 'SLAVE', haMasterAddress: `127.0.0.1:${master.port + 1}`,
    }, extraProps);
    const b = new BrokerProc({ namesrvAddr: this.namesrv.addr, brokerName: master.brokerName, extraProps: props });
    this.brokers.push(b);
    await b.start();
    return b;
  }

  // Polls the route of `topic` until `pred(route)` holds; returns that route.
  async waitForRouteWhere(topic, what, pred, timeoutMs = 30000) {
    const raw = new RawRemoting(this.namesrv.port);
    await raw.connect();
    const deadline = Date.now() + timeoutMs;
    let last = '';
    try {
      while (Date.now() < deadline) {
        const { header, body } = await raw.request(GET_ROUTEINFO_BY_TOPIC, { topic }, null, 401);
        if (header.code === 0) {
          const route = JSON.parse(body.toString('utf8'));
          if (pred(route)) return route;
          last = JSON.stringify(route.brokerDatas);
        } else {
          last = `code ${header.code} ${header.remark}`;
        }
        await sleep(100);
      }
    } finally {
      raw.close();
    }
    throw new Error(`route of ${topic}: ${what} not seen after ${timeoutMs} ms; last: ${last}`);
  }

  // Waits until the NameServer's route of `topic` lists `brokerCount` brokers.
  async waitForRoute(topic, brokerCount = 1, timeoutMs = 20000) {
    const raw = new RawRemoting(this.namesrv.port);
    await raw.connect();
    const deadline = Date.now() + timeoutMs;
    let last = '';
    try {
      while (Date.now() < deadline) {
        const { header, body } = await raw.request(GET_ROUTEINFO_BY_TOPIC, { topic }, null, 401);
        if (header.code === 0) {
          const route = JSON.parse(body.toString('utf8'));
          if (route.brokerDatas.length >= brokerCount) return route;
          last = `${route.brokerDatas.length} broker(s)`;
        } else {
          last = `code ${header.code} ${header.remark}`;
        }
        await sleep(100);
      }
    } finally {
      raw.close();
    }
    throw new Error(`route of ${topic} not ready after ${timeoutMs} ms: ${last}`);
  }

  // Creates the topic on every broker and waits for the merged route.
  async createTopic(topic, queues = 4) {
    for (const b of this.brokers) await b.createTopic(topic, queues);
    return this.waitForRoute(topic, this.brokers.length);
  }

  async stop() {
    for (const b of this.brokers) {
      try { await b.stop(); } catch (e) { console.error(e); }
    }
    if (this.namesrv) await this.namesrv.stop();
    for (const b of this.brokers) b.cleanup();
  }
}

// Logger for ali-ons that keeps the test output readable but shows errors.
const quietLogger = {
  info() {}, debug() {}, warn() {},
  error(...a) { console.error('[ali-ons]', ...a); },
};

// ali-ons requires an httpclient option even when nameSrv is given (unused then).
const httpclient = {};

// Polls `cond` every 50 ms; throws `what` after `timeoutMs`.
async function waitUntil(what, cond, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await sleep(50);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

module.exports = { Cluster, BrokerProc, quietLogger, httpclient, waitUntil, sleep };
