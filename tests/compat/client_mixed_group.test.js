'use strict';
// MIXED GROUP (issue #7): an Apogee C++ push consumer (examples/push_consumer) and an ali-ons
// 3.12.0 consumer in one CLUSTERING group with the default Averagely strategy. Both compute
// the allocation from the same sorted queue list and sorted consumer-id list, so together
// they must cover the topic's 4 queues with no overlap and no gap, and every message must be
// consumed exactly once, each by the member that owns its queue.
//
// The C++ side prints "ASSIGNED broker:queue,..." every second and
// "CONSUMED <broker> <queueId> <queueOffset> <msgId> <body>" per message.

const assert = require('assert');
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { spawn } = require('child_process');
const { Producer, Consumer, Message } = require('ali-ons');
const { Cluster, quietLogger, httpclient, waitUntil, sleep } = require('./lib/cluster');
const { runChecks } = require('./apogee_harness');

function closeQuietly(client) {
  return Promise.race([ client.close().catch(() => {}), sleep(5000) ]);
}

function exampleBinary(name) {
  const bin = path.join(process.env.APOGEE_BIN_DIR, '..', 'examples', name);
  assert(fs.existsSync(bin), `${bin} not built (cmake --build <dir> --target example_${name})`);
  return bin;
}

// The C++ consumer as a child process, its output parsed as it arrives.
class CppConsumer {
  constructor(args) {
    this.assigned = [];
    this.consumed = [];
    this.child = spawn(exampleBinary('push_consumer'), args, { stdio: [ 'ignore', 'pipe', 'pipe' ] });
    this.exited = new Promise(resolve => this.child.once('exit', code => resolve(code)));
    this.stderr = '';
    this.child.stderr.on('data', d => { this.stderr += d.toString(); });
    readline.createInterface({ input: this.child.stdout }).on('line', line => {
      const parts = line.split(' ');
      if (parts[0] === 'ASSIGNED') {
        this.assigned = (parts[1] || '').split(',').filter(s => s).map(s => Number(s.split(':')[1])).sort();
      } else if (parts[0] === 'CONSUMED') {
        this.consumed.push({ queueId: Number(parts[2]), body: parts.slice(5).join(' ') });
      }
    });
  }

  async stop() {
    this.child.kill('SIGTERM');
    const code = await Promise.race([ this.exited, sleep(15000).then(() => 'timeout') ]);
    if (code === 'timeout') this.child.kill('SIGKILL');
    return code;
  }
}

function ownedQueues(consumer, topic) {
  return [ ...consumer.processQueueTable.values() ]
    .map(item => item.messageQueue)
    .filter(mq => mq && mq.topic === topic)
    .map(mq => mq.queueId)
    .sort();
}

runChecks('client_mixed_group', async check => {
  const cluster = new Cluster();
  const clients = [];
  let cpp;
  try {
    await cluster.startNamesrv();
    await cluster.addBroker('broker-a');
    const topic = 'MixedTopic';
    const group = 'MixedGroup';
    await cluster.createTopic(topic, 4);

    const onsGot = [];
    const ons = new Consumer({
      httpclient, nameSrv: cluster.namesrv.addr, consumerGroup: group, instanceName: 'ons-1',
      consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET', rebalanceInterval: 1000,
      persistConsumerOffsetInterval: 500, logger: quietLogger,
    });
    ons.on('error', e => console.error('[ons error]', e.message));
    clients.push(ons);
    ons.subscribe(topic, '*', async msg => { onsGot.push({ queueId: msg.queueId, body: msg.body.toString() }); });
    await ons.ready();

    cpp = new CppConsumer([ '-n', cluster.namesrv.addr, '-t', topic, '-g', group, '-i', 'cpp-1', '--from-first' ]);

    await check('the C++ and ali-ons members split the 4 queues 2 + 2, no overlap, no gap', async () => {
      await waitUntil('2 + 2 queues', () =>
        ownedQueues(ons, topic).length === 2 && cpp.assigned.length === 2, 40000)
        .catch(e => { throw new Error(`${e.message}: ali-ons ${ownedQueues(ons, topic)}, C++ ${cpp.assigned}\n${cpp.stderr}`); });
      await sleep(1500);  // stable: a disagreement would show as a flip or an overlap now
      const onsQueues = ownedQueues(ons, topic);
      assert.deepStrictEqual(onsQueues.concat(cpp.assigned).sort(), [ 0, 1, 2, 3 ],
        `ali-ons ${onsQueues}, C++ ${cpp.assigned}`);
    });

    const producer = new Producer({
      httpclient, nameSrv: cluster.namesrv.addr, producerGroup: 'MixedProducer',
      instanceName: 'mixed-producer', logger: quietLogger,
    });
    clients.push(producer);
    await producer.ready();
    const bodies = [];
    for (let i = 0; i < 40; i++) {
      const body = `mixed-${i}`;
      const r = await producer.send(new Message(topic, 'TagA', body));
      assert.strictEqual(r.sendStatus, 'SEND_OK');
      bodies.push(body);
    }

    await check('each of 40 messages is consumed exactly once across the two members', async () => {
      await waitUntil('40 messages', () => onsGot.length + cpp.consumed.length >= 40, 40000)
        .catch(e => { throw new Error(`${e.message}: ali-ons ${onsGot.length}, C++ ${cpp.consumed.length}`); });
      await sleep(1000);
      const all = onsGot.map(m => m.body).concat(cpp.consumed.map(m => m.body)).sort();
      assert.deepStrictEqual(all, [ ...bodies ].sort());
      assert(onsGot.length > 0 && cpp.consumed.length > 0, `split ${onsGot.length} / ${cpp.consumed.length}`);
    });

    await check('each member consumed only the queues it owns', async () => {
      const onsQueues = new Set(ownedQueues(ons, topic));
      const cppQueues = new Set(cpp.assigned);
      for (const m of onsGot) assert(onsQueues.has(m.queueId), `ali-ons consumed queue ${m.queueId}`);
      for (const m of cpp.consumed) assert(cppQueues.has(m.queueId), `C++ consumed queue ${m.queueId}`);
    });

    await check('the C++ consumer shuts down cleanly on SIGTERM', async () => {
      const code = await cpp.stop();
      cpp = null;
      assert.strictEqual(code, 0);
    });

    await check('after the C++ member leaves, ali-ons takes all 4 queues', async () => {
      await waitUntil('4 queues', () => ownedQueues(ons, topic).length === 4, 40000);
    });
  } finally {
    if (cpp) await cpp.stop();
    for (const c of clients.reverse()) await closeQuietly(c);
    await cluster.stop();
  }
});
