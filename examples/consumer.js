'use strict';
// RocketMQ quick start's push Consumer with ali-ons: prints every TagA message of the topic,
// from the first offset on the group's first start, and from its committed offset after.
// Stops on Ctrl-C (committing its offsets), or after `seconds` when given.
//
//   node consumer.js [seconds]
// Env: NAMESRV_ADDR (default 127.0.0.1:9876), TOPIC (default TopicTest),
//      GROUP (default please_rename_unique_group_name_4), BROADCAST=1 for broadcasting mode.

const { Consumer } = require('./ali_ons').load('ali-ons');

const seconds = Number(process.argv[2] || 0);
const nameSrv = process.env.NAMESRV_ADDR || '127.0.0.1:9876';
const topic = process.env.TOPIC || 'TopicTest';
const consumerGroup = process.env.GROUP || 'please_rename_unique_group_name_4';
const logger = { info() {}, debug() {}, warn() {}, error: console.error };

const consumer = new Consumer({
  httpclient: {}, nameSrv, consumerGroup, logger,
  consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET',
  isBroadcast: process.env.BROADCAST === '1',
});

let closing = false;
async function stop() {
  if (closing) return;
  closing = true;
  await consumer.close();
  process.exit(0);
}

// "Consumer Started." as Java's quick start prints it, before any message: ali-ons may
// deliver the first messages before ready() resolves.
let started = false;
function printStarted() {
  if (!started) console.log('Consumer Started.');
  started = true;
}

consumer.subscribe(topic, 'TagA', async msg => {
  printStarted();
  console.log(`Receive New Messages: msgId=${msg.msgId} queueId=${msg.queueId} ` +
    `queueOffset=${msg.queueOffset} tags=${msg.tags} keys=${msg.keys} body=${msg.body.toString()}`);
});
consumer.on('error', err => console.error(err.message));
consumer.ready().then(printStarted);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (seconds > 0) setTimeout(stop, seconds * 1000);
