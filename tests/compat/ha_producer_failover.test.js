'use strict';
// ali-ons 3.12.0 producing to a topic spread over two broker sets (broker-a, broker-b, one
// master each) while broker-a's master is killed with SIGKILL. The NameServer drops
// broker-a when its connection closes; the producer's route refresh (1 s here) follows.
// Sends that fail even after the client's own retries are counted: a few right at the kill
// are tolerated (a send in flight on the dead connection), none once the route was
// refreshed, and every send after that lands on broker-b.

const assert = require('assert');
const { Producer, Message } = require('ali-ons');
const { Cluster, quietLogger, httpclient, sleep } = require('./lib/cluster');
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

runChecks('ha_producer_failover', async check => {
  const cluster = new Cluster();
  const topic = 'HaFailoverTopic';
  let producer;
  try {
    await cluster.startNamesrv();
    const a = await cluster.addBroker('broker-a');
    await cluster.addBroker('broker-b');
    await check('the route lists broker-a and broker-b', async () => {
      const route = await cluster.createTopic(topic, 2);
      assert.deepStrictEqual(route.brokerDatas.map(d => d.brokerName).sort(), [ 'broker-a', 'broker-b' ]);
    });

    producer = new Producer({
      httpclient, nameSrv: cluster.namesrv.addr, producerGroup: 'HaFailoverProducer',
      instanceName: 'ha-failover-producer', logger: quietLogger, pollNameServerInteval: 1000,
      sendMsgTimeout: 3000,
    });
    // Connection errors to the killed master are expected; the checks count send failures.
    let connectErrors = 0;
    producer.on('error', () => { connectErrors++; });
    await producer.ready();

    // Sends one message at a time for `ms`, recording where each went or that it failed.
    const results = [];
    const sendFor = async (phase, ms) => {
      const end = Date.now() + ms;
      let i = 0;
      while (Date.now() < end) {
        const at = Date.now();
        try {
          const r = await producer.send(new Message(topic, 'TagA', `${phase}-${i++}`));
          results.push({ phase, at, ok: r.sendStatus === 'SEND_OK', broker: r.messageQueue.brokerName });
        } catch (e) {
          results.push({ phase, at, ok: false, error: e.message });
        }
        await sleep(20);
      }
    };

    await check('before the kill, sends reach both broker sets', async () => {
      await sendFor('before', 1500);
      const before = results.filter(r => r.phase === 'before');
      assert(before.length > 10, `only ${before.length} sends`);
      assert(before.every(r => r.ok), JSON.stringify(before.filter(r => !r.ok)));
      assert.deepStrictEqual([ ...new Set(before.map(r => r.broker)) ].sort(), [ 'broker-a', 'broker-b' ]);
    });

    let killedAt = 0;
    await check('broker-a\'s master is killed; the route keeps broker-b only', async () => {
      killedAt = Date.now();
      const status = await a.stop('SIGKILL');
      assert.strictEqual(status.signal, 'SIGKILL');
      await cluster.waitForRouteWhere(topic, 'broker-b only',
        r => r.brokerDatas.length === 1 && r.brokerDatas[0].brokerName === 'broker-b', 20000);
    });

    await check('sends go on: failures beyond the client\'s retries stop once the route was refreshed', async () => {
      await sendFor('after', 6000);
      const after = results.filter(r => r.phase === 'after');
      // Route refresh is every 1 s; allow 3 s for it and the client's dead-connection handling.
      const settled = after.filter(r => r.at > killedAt + 3000);
      const early = after.filter(r => r.at <= killedAt + 3000 && !r.ok);
      console.log(`note - ${early.length} send(s) failed within 3 s of the kill (client retries exhausted); ` +
        `${after.length} sends after the kill; ${connectErrors} client error event(s)`);
      assert(settled.length > 20, `only ${settled.length} sends after the route refresh`);
      assert.deepStrictEqual(settled.filter(r => !r.ok), []);
      assert(settled.every(r => r.broker === 'broker-b'), 'a send after the refresh went to broker-a');
    });
  } finally {
    if (producer) await closeQuietly(producer);
    await cluster.stop();
  }
});
