'use strict';
// ali-ons 3.12.0 against a real mqnamesrv + mqbroker with short delay levels ("1s 2s 1s ..."):
// a message sent with delayTimeLevel arrives no earlier than its level's delay; a consumer
// whose handler throws gets the message again through %RETRY%<group> (ali-ons hands it back
// with CONSUMER_SEND_MSG_BACK, delayLevel 0, its maxReconsumeTimes option) until
// reconsumeTimes reaches maxReconsumeTimes, after which the broker stores it in the
// write-only %DLQ%<group>.

const assert = require('assert');
const { Producer, Consumer, Message } = require('ali-ons');
const { Cluster, quietLogger, httpclient, waitUntil, sleep } = require('./lib/cluster');
const { RawRemoting, runChecks } = require('./apogee_harness');

const GET_MAX_OFFSET = 30;
const PULL_MESSAGE = 11;
const NO_PERMISSION = 16;

function closeQuietly(client) {
  return Promise.race([ client.close().catch(() => {}), sleep(5000) ]);
}

runChecks('broker_retry_delay', async check => {
  const cluster = new Cluster();
  const clients = [];
  try {
    await cluster.startNamesrv();
    // Level 2 = 2 s for the delay check; every other level 1 s so retries come back fast.
    const broker = await cluster.addBroker('broker-a', {
      messageDelayLevel: '1s 2s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s',
    });
    await cluster.createTopic('DelayTopic', 2);
    await cluster.createTopic('RetryTopic', 1);

    const producer = new Producer({
      httpclient, nameSrv: cluster.namesrv.addr, producerGroup: 'RetryDelayProducer',
      instanceName: 'retry-delay-producer', logger: quietLogger,
    });
    clients.push(producer);
    await producer.ready();

    const newConsumer = (group, extra = {}) => {
      const c = new Consumer(Object.assign({
        httpclient, nameSrv: cluster.namesrv.addr, consumerGroup: group, instanceName: group,
        consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET', rebalanceInterval: 1000,
        persistConsumerOffsetInterval: 500, logger: quietLogger,
      }, extra));
      c.on('error', e => { if (!/retry me/.test(e.message)) console.error(`[${group} error]`, e.message); });
      clients.push(c);
      return c;
    };

    // ---- delayTimeLevel ----
    const delayed = [];
    const dc = newConsumer('DelayGroup');
    dc.subscribe('DelayTopic', '*', async msg => {
      delayed.push({ body: msg.body.toString(), storeTimestamp: msg.storeTimestamp, at: Date.now() });
    });
    await dc.ready();
    const sentAt = Date.now();
    for (let i = 0; i < 5; i++) {
      const m = new Message('DelayTopic', 'TagD', `delayed-${i}`);
      m.delayTimeLevel = 2;
      const r = await producer.send(m);
      assert.strictEqual(r.sendStatus, 'SEND_OK');
    }
    await check('messages with delayTimeLevel 2 arrive after 2 s, never before', async () => {
      await waitUntil('5 delayed messages', () => delayed.length >= 5, 30000);
      for (const d of delayed) {
        assert(d.storeTimestamp >= sentAt + 2000, `${d.body} stored in the real topic ${d.storeTimestamp - sentAt} ms after the send`);
        assert(d.at >= sentAt + 2000, `${d.body} consumed ${d.at - sentAt} ms after the send`);
      }
      assert.deepStrictEqual(delayed.map(d => d.body).sort(), [ 0, 1, 2, 3, 4 ].map(i => `delayed-${i}`));
    });

    // ---- retry through send-back, then the DLQ ----
    const maxReconsumeTimes = 2;
    const attempts = [];
    const rc = newConsumer('RetryGroup', { maxReconsumeTimes });
    rc.subscribe('RetryTopic', '*', async msg => {
      attempts.push({ body: msg.body.toString(), reconsumeTimes: msg.reconsumeTimes, topic: msg.topic });
      throw new Error('retry me');
    });
    await rc.ready();
    const r = await producer.send(new Message('RetryTopic', 'TagR', 'poison'));
    assert.strictEqual(r.sendStatus, 'SEND_OK');

    await check(`a throwing handler sees the message ${maxReconsumeTimes + 1} times (reconsumeTimes 0..${maxReconsumeTimes})`, async () => {
      await waitUntil('3 attempts', () => attempts.length >= maxReconsumeTimes + 1, 40000);
      await sleep(3000);  // a further retry would be back within ~1 s
      assert.deepStrictEqual(attempts.map(a => a.reconsumeTimes), [ 0, 1, 2 ]);
      for (const a of attempts) {
        assert.strictEqual(a.body, 'poison');
        assert.strictEqual(a.topic, 'RetryTopic');  // the retry topic is restored to the original
      }
    });

    const raw = new RawRemoting(broker.port);
    await raw.connect();
    try {
      await check('after the last failure the message is in the write-only %DLQ%RetryGroup', async () => {
        await waitUntil('DLQ max offset 1', async () => {
          const { header } = await raw.request(GET_MAX_OFFSET, { topic: '%DLQ%RetryGroup', queueId: '0' });
          return header.code === 0 && header.extFields.offset === '1';
        }, 10000);
        const { header } = await raw.request(PULL_MESSAGE, {
          consumerGroup: 'Inspector', topic: '%DLQ%RetryGroup', queueId: '0', queueOffset: '0',
          maxMsgNums: '32', sysFlag: '4', commitOffset: '0', suspendTimeoutMillis: '0',
          subscription: '*', subVersion: '1',
        });
        assert.strictEqual(header.code, NO_PERMISSION, `pull from the DLQ answered ${header.code} ${header.remark}`);
      });
    } finally {
      raw.close();
    }
  } finally {
    for (const c of clients) await closeQuietly(c);
    await cluster.stop();
  }
});
