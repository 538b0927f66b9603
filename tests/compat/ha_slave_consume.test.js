'use strict';
// ali-ons 3.12.0 reading from a slave while its master is down: one broker set (a
// SYNC_MASTER and its SLAVE). A consumer group reads a first batch from the master and
// commits; a second batch is produced (acknowledged by the SYNC_MASTER, so on the slave);
// the master is killed with SIGKILL; the route still lists the slave; a new consumer of the
// group receives every message of the second batch, from the slave.

const assert = require('assert');
const { Producer, Consumer, Message } = require('ali-ons');
const { Cluster, quietLogger, httpclient, waitUntil, sleep } = require('./lib/cluster');
const { runChecks } = require('./apogee_harness');

// ali-ons quirk: closing a client removes its error listener from the shared MQClient,
// yet a connect to the dead master already in flight still emits 'error' there, which
// would crash node as an unhandled 'error' event. Keep a listener that reports it.
function closeQuietly(client) {
  const note = e => console.log(`note - after close: ${e.message}`);
  client.on('error', note);
  if (client._mqClient) client._mqClient.on('error', note);
  return Promise.race([ client.close().catch(() => {}), sleep(5000) ]);
}

runChecks('ha_slave_consume', async check => {
  const cluster = new Cluster();
  const clients = [];
  const topic = 'HaSlaveTopic';
  const group = 'HaSlaveGroup';
  const newConsumer = (name, sink) => {
    const c = new Consumer({
      httpclient, nameSrv: cluster.namesrv.addr, consumerGroup: group, instanceName: name,
      consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET', rebalanceInterval: 1000,
      persistConsumerOffsetInterval: 500, pollNameServerInteval: 1000, logger: quietLogger,
    });
    c.on('error', e => console.error(`[${name} error]`, e.message));
    c.subscribe(topic, '*', async msg => { sink.push(msg); });
    clients.push(c);
    return c;
  };
  try {
    await cluster.startNamesrv();
    const master = await cluster.addBroker('broker-a', { brokerRole: 'SYNC_MASTER', flushDiskType: 'SYNC_FLUSH' });
    // The slave copies the master's topics and consumer offsets every second. It serves
    // pulls in the default configuration (no slaveReadEnable), as a Java 4.x slave does.
    const slave = await cluster.addSlave(master, { slaveSynchronizeInterval: 1000 });

    await check('the route lists the master (id 0) and the slave (id 1)', async () => {
      await master.createTopic(topic, 2);
      const route = await cluster.waitForRouteWhere(topic, 'master and slave',
        r => r.brokerDatas.length === 1 && r.brokerDatas[0].brokerAddrs['0'] && r.brokerDatas[0].brokerAddrs['1']);
      assert.strictEqual(route.brokerDatas[0].brokerAddrs['0'], master.addr);
      assert.strictEqual(route.brokerDatas[0].brokerAddrs['1'], slave.addr);
    });

    const producer = new Producer({
      httpclient, nameSrv: cluster.namesrv.addr, producerGroup: 'HaSlaveProducer',
      instanceName: 'ha-slave-producer', logger: quietLogger,
    });
    producer.on('error', e => console.log(`note - producer: ${e.message}`));
    clients.push(producer);
    await producer.ready();
    const send = async (prefix, n) => {
      const ids = [];
      for (let i = 0; i < n; i++) {
        // SEND_OK from a SYNC_MASTER: the slave acknowledged it. The first sends may find
        // the slave not yet connected (SLAVE_NOT_AVAILABLE); those are retried.
        for (let attempt = 0; ; attempt++) {
          const r = await producer.send(new Message(topic, 'TagA', `${prefix}-${i}`));
          if (r.sendStatus === 'SEND_OK') { ids.push(r.msgId); break; }
          assert(attempt < 50, `send ${prefix}-${i}: ${r.sendStatus}`);
          await sleep(200);
        }
      }
      return ids;
    };
    const first = await send('first', 10);

    const got1 = [];
    const c1 = newConsumer('ha-slave-consumer-1', got1);
    await c1.ready();
    await check('a consumer reads the first 10 from the master', async () => {
      await waitUntil('10 messages', () => got1.length >= 10, 30000);
      assert.deepStrictEqual(got1.map(m => m.msgId).sort(), [ ...first ].sort());
    });
    await sleep(2500);  // offsets committed to the master and copied to the slave
    await closeQuietly(c1);

    const second = await send('second', 10);
    // Done producing: a producer left open would hit the dead master on its next heartbeat.
    await closeQuietly(producer);
    await check('the master dies (SIGKILL); the route keeps the slave', async () => {
      const status = await master.stop('SIGKILL');
      assert.strictEqual(status.signal, 'SIGKILL');
      const route = await cluster.waitForRouteWhere(topic, 'slave only',
        r => r.brokerDatas.length === 1 && !r.brokerDatas[0].brokerAddrs['0'] && r.brokerDatas[0].brokerAddrs['1']);
      assert.strictEqual(route.brokerDatas[0].brokerAddrs['1'], slave.addr);
    });

    const got2 = [];
    const c2 = newConsumer('ha-slave-consumer-2', got2);
    await c2.ready();
    await check('a new consumer of the group reads every message of the second batch from the slave', async () => {
      await waitUntil('the second batch', () => second.every(id => got2.some(m => m.msgId === id)), 40000);
      const redelivered = got2.filter(m => first.includes(m.msgId)).length;
      // At-least-once: a first-batch message may come again if its offset had not reached
      // the slave; said, not failed.
      if (redelivered > 0) console.log(`note - ${redelivered} first-batch message(s) delivered again from the slave`);
      const unknown = got2.filter(m => !first.includes(m.msgId) && !second.includes(m.msgId));
      assert.deepStrictEqual(unknown, []);
    });
  } finally {
    for (const c of clients.reverse()) await closeQuietly(c);
    await cluster.stop();
  }
});
