'use strict';
// ali-ons 3.12.0 (a real RocketMQ client) against a real mqnamesrv: a fake broker
// registers over a raw remoting frame, then ali-ons's own MQClientAPI fetches the route
// and its own MQClient logic turns it into message queues. Also checks the two route JSON
// forms: standard JSON for version >= 401, fastjson's bare numeric keys for older clients
// (ali-ons sends 121 and parses with JSON2, which accepts them).

const assert = require('assert');
const JSON2 = require('JSON2');
const MQClientAPI = require('ali-ons/lib/mq_client_api');
const MQClient = require('ali-ons/lib/mq_client');
const { startNamesrv, RawRemoting, registerBrokerRequest, runChecks } = require('./apogee_harness');

const REGISTER_BROKER = 103;
const GET_ROUTEINFO_BY_TOPIC = 105;
const TOPIC_NOT_EXIST = 17;

const quietLogger = { info() {}, debug() {}, warn() {}, error(...a) { console.error(...a); } };

runChecks('namesrv_route', async check => {
  const ns = await startNamesrv();
  const broker = new RawRemoting(ns.port);
  const slave = new RawRemoting(ns.port);
  const api = new MQClientAPI({ nameSrv: ns.addr, httpclient: {}, logger: quietLogger, responseTimeout: 5000 });
  try {
    await broker.connect();
    await slave.connect();

    await check('master broker registers over a raw REGISTER_BROKER frame', async () => {
      const { extFields, body } = registerBrokerRequest({
        cluster: 'DefaultCluster', brokerName: 'broker-a', brokerId: 0, brokerAddr: '127.0.0.1:10911',
        topics: [ { name: 'TopicTest', queues: 4 }, { name: 'ReadOnly', queues: 2, perm: 4 } ],
      });
      const { header } = await broker.request(REGISTER_BROKER, extFields, body, 407);
      assert.strictEqual(header.code, 0, header.remark);
      assert.strictEqual(header.flag & 1, 1, 'response flag');
    });

    await check('slave registers and learns its master and HA address', async () => {
      const { extFields, body } = registerBrokerRequest({
        cluster: 'DefaultCluster', brokerName: 'broker-a', brokerId: 1, brokerAddr: '127.0.0.1:10921',
        topics: [ { name: 'TopicTest', queues: 4 } ],
      });
      const { header } = await slave.request(REGISTER_BROKER, extFields, body, 407);
      assert.strictEqual(header.code, 0, header.remark);
      assert.strictEqual(header.extFields.masterAddr, '127.0.0.1:10911');
      assert.strictEqual(header.extFields.haServerAddr, '127.0.0.1:10912');
    });

    let route;
    await check('ali-ons MQClientAPI fetches the route', async () => {
      await api.ready();
      route = await api.getTopicRouteInfoFromNameServer('TopicTest', 5000);
      assert(route, 'route returned');
      assert.strictEqual(route.brokerDatas.length, 1);
      const bd = route.brokerDatas[0];
      assert.strictEqual(bd.brokerName, 'broker-a');
      assert.strictEqual(bd.cluster, 'DefaultCluster');
      assert.strictEqual(bd.brokerAddrs[0], '127.0.0.1:10911');
      assert.strictEqual(bd.brokerAddrs[1], '127.0.0.1:10921');
      assert.strictEqual(route.queueDatas.length, 1);
      assert.strictEqual(route.queueDatas[0].readQueueNums, 4);
      assert.strictEqual(route.queueDatas[0].writeQueueNums, 4);
      assert.strictEqual(route.queueDatas[0].perm, 6);
    });

    await check('ali-ons turns the route into 4 publish and 4 subscribe queues on broker-a', async () => {
      const publish = MQClient.prototype._topicRouteData2TopicPublishInfo.call(null, 'TopicTest', route);
      assert.strictEqual(publish.orderTopic, false);
      assert.deepStrictEqual(publish.messageQueueList.map(q => `${q.brokerName}/${q.queueId}`),
        [ 'broker-a/0', 'broker-a/1', 'broker-a/2', 'broker-a/3' ]);
      const subscribe = MQClient.prototype._topicRouteData2TopicSubscribeInfo.call(null, 'TopicTest', route);
      assert.strictEqual(subscribe.length, 4);
    });

    await check('ali-ons sees a read-only topic as subscribable but not publishable', async () => {
      const ro = await api.getTopicRouteInfoFromNameServer('ReadOnly', 5000);
      const publish = MQClient.prototype._topicRouteData2TopicPublishInfo.call(null, 'ReadOnly', ro);
      assert.strictEqual(publish.messageQueueList.length, 0);
      const subscribe = MQClient.prototype._topicRouteData2TopicSubscribeInfo.call(null, 'ReadOnly', ro);
      assert.strictEqual(subscribe.length, 2);
    });

    await check('ali-ons gets TOPIC_NOT_EXIST for an unknown topic', async () => {
      await assert.rejects(api.getTopicRouteInfoFromNameServer('NoSuchTopic', 5000), err => {
        assert.strictEqual(err.name, 'MQClientException');
        assert.strictEqual(err.code, TOPIC_NOT_EXIST);
        assert.match(err.message, /No topic route info in name server for the topic: NoSuchTopic/);
        return true;
      });
    });

    await check('version 401 gets standard JSON that JSON.parse accepts', async () => {
      const { header, body } = await broker.request(GET_ROUTEINFO_BY_TOPIC, { topic: 'TopicTest' }, null, 401);
      assert.strictEqual(header.code, 0);
      const parsed = JSON.parse(body.toString('utf8'));
      assert.deepStrictEqual(parsed.brokerDatas[0].brokerAddrs, { 0: '127.0.0.1:10911', 1: '127.0.0.1:10921' });
      assert.match(body.toString('utf8'), /"brokerAddrs":\{"0":"127\.0\.0\.1:10911","1":"127\.0\.0\.1:10921"\}/);
    });

    await check('acceptStandardJsonOnly=true gets standard JSON at any version', async () => {
      const { body } = await broker.request(GET_ROUTEINFO_BY_TOPIC,
        { topic: 'TopicTest', acceptStandardJsonOnly: 'true' }, null, 121);
      JSON.parse(body.toString('utf8'));
    });

    await check('version 121 gets the bare-key form, which only a lenient parser reads', async () => {
      const { header, body } = await broker.request(GET_ROUTEINFO_BY_TOPIC, { topic: 'TopicTest' }, null, 121);
      assert.strictEqual(header.code, 0);
      const text = body.toString('utf8');
      assert.match(text, /"brokerAddrs":\{0:"127\.0\.0\.1:10911",1:"127\.0\.0\.1:10921"\}/);
      assert.throws(() => JSON.parse(text), SyntaxError);
      assert.strictEqual(JSON2.parse(text).brokerDatas[0].brokerAddrs[1], '127.0.0.1:10921');
    });

    await check('closing the slave connection removes the slave at once', async () => {
      slave.close();
      let addrs;
      for (let i = 0; i < 50; i++) {
        const r = await api.getTopicRouteInfoFromNameServer('TopicTest', 5000);
        addrs = r.brokerDatas[0].brokerAddrs;
        if (!addrs[1]) break;
        await new Promise(resolve => setTimeout(resolve, 50));
      }
      assert.deepStrictEqual(Object.keys(addrs), [ '0' ]);
    });
  } finally {
    broker.close();
    slave.close();
    await api.close();
    const status = await ns.stop();
    await check('mqnamesrv stops cleanly on SIGTERM', async () => {
      assert.deepStrictEqual(status, { code: 0, signal: null });
    });
  }
});
