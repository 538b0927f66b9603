'use strict';
// The quick-start scripts in examples/ run as a new user runs them: no NODE_PATH, real
// mqnamesrv + mqbroker, and each script exits by itself when done (producer.js used to hang
// on ali-ons's timers).

const assert = require('assert');
const path = require('path');
const { spawn } = require('child_process');
const { Cluster } = require('./lib/cluster');
const { runChecks } = require('./apogee_harness');

const examples = path.join(__dirname, '..', '..', 'examples');

// Runs `node examples/<script> args` with NODE_PATH removed; resolves { code, out } or
// rejects when it has not exited within `timeoutMs`.
function runScript(script, args, env, timeoutMs = 60000) {
  return new Promise((resolve, reject) => {
    const childEnv = Object.assign({}, process.env, env);
    delete childEnv.NODE_PATH;
    const child = spawn(process.execPath, [ path.join(examples, script), ...args ], {
      env: childEnv, cwd: path.join(__dirname, '..', '..'),
    });
    let out = '';
    child.stdout.on('data', d => { out += d; });
    child.stderr.on('data', d => { out += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not exit within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    child.on('exit', code => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

runChecks('examples_scripts', async check => {
  const cluster = new Cluster();
  try {
    await cluster.startNamesrv();
    const broker = await cluster.addBroker('broker-a');
    const env = { NAMESRV_ADDR: cluster.namesrv.addr, BROKER_ADDR: broker.addr, TOPIC: 'ExampleTopic',
      GROUP: 'ExampleGroup' };

    await check('create_topic.js creates the topic and exits', async () => {
      const r = await runScript('create_topic.js', [ 'ExampleTopic', '4' ], env);
      assert.strictEqual(r.code, 0, r.out);
      assert(r.out.includes(`create topic to ${broker.addr} success.`), r.out);
    });
    await check('producer.js sends 5 messages, prints 5 SendResults and exits', async () => {
      const r = await runScript('producer.js', [ '5' ], env);
      assert.strictEqual(r.code, 0, r.out);
      const lines = r.out.split('\n').filter(l => l.startsWith('SendResult [sendStatus=SEND_OK'));
      assert.strictEqual(lines.length, 5, r.out);
    });
    await check('consumer.js receives the 5 messages and exits after its seconds', async () => {
      const r = await runScript('consumer.js', [ '15' ], env, 60000);
      assert.strictEqual(r.code, 0, r.out);
      assert(r.out.includes('Consumer Started.'), r.out);
      for (let i = 0; i < 5; i++) assert(r.out.includes(`body=Hello RocketMQ ${i}`), r.out);
    });
  } finally {
    await cluster.stop();
  }
});
