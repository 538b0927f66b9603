'use strict';
// Creates a topic on one broker with UPDATE_AND_CREATE_TOPIC (what `mqadmin updateTopic -b`
// sends), through ali-ons's own MQClientAPI.createTopic.
//
//   node create_topic.js [topic] [queues]
// Env: BROKER_ADDR (default 127.0.0.1:10911), NAMESRV_ADDR (default 127.0.0.1:9876).

const MQClientAPI = require('./ali_ons').load('ali-ons/lib/mq_client_api');

const topic = process.argv[2] || 'TopicTest';
const queues = Number(process.argv[3] || 4);
const brokerAddr = process.env.BROKER_ADDR || '127.0.0.1:10911';
const nameSrv = process.env.NAMESRV_ADDR || '127.0.0.1:9876';
const logger = { info() {}, debug() {}, warn() {}, error: console.error };

(async () => {
  const api = new MQClientAPI({ nameSrv, httpclient: {}, logger, responseTimeout: 5000 });
  await api.ready();
  try {
    await api.createTopic(brokerAddr, 'TBW102', {
      topicName: topic, readQueueNums: queues, writeQueueNums: queues, perm: 6,
      topicFilterType: 'SINGLE_TAG', topicSysFlag: 0, order: false,
    }, 5000);
    console.log(`create topic to ${brokerAddr} success.`);
    console.log(`TopicConfig [topicName=${topic}, readQueueNums=${queues}, writeQueueNums=${queues}, perm=RW-]`);
  } finally {
    await api.close();
  }
  process.exit(0);  // ali-ons's timers would keep Node running
})().catch(err => {
  console.error(`create topic ${topic} failed: ${err.message}`);
  process.exit(1);
});
