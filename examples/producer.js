'use strict';
// RocketMQ quick start's Producer with ali-ons: sends `count` messages tagged TagA with a key.
//
//   node producer.js [count]
// Env: NAMESRV_ADDR (default 127.0.0.1:9876), TOPIC (default TopicTest).

const { Producer, Message } = require('./ali_ons').load('ali-ons');

const count = Number(process.argv[2] || 10);
const nameSrv = process.env.NAMESRV_ADDR || '127.0.0.1:9876';
const topic = process.env.TOPIC || 'TopicTest';
const logger = { info() {}, debug() {}, warn() {}, error: console.error };

(async () => {
  const producer = new Producer({ httpclient: {}, nameSrv, producerGroup: 'please_rename_unique_group_name', logger });
  await producer.ready();
  try {
    for (let i = 0; i < count; i++) {
      const msg = new Message(topic, 'TagA', `Hello RocketMQ ${i}`);
      msg.keys = [ `KEY${i}` ];
      const r = await producer.send(msg);
      console.log(`SendResult [sendStatus=${r.sendStatus}, msgId=${r.msgId}, ` +
        `messageQueue=[topic=${r.messageQueue.topic}, brokerName=${r.messageQueue.brokerName}, ` +
        `queueId=${r.messageQueue.queueId}], queueOffset=${r.queueOffset}]`);
    }
  } finally {
    await producer.close();
  }
  // ali-ons's client instance keeps timers (route refresh, heartbeats) that hold Node open
  // after close(): end the process once the sends are done.
  process.exit(0);
})().catch(err => {
  console.error(`send failed: ${err.message}`);
  process.exit(1);
});
