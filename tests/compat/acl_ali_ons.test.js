'use strict';
// ali-ons 3.12.0 with accessKeyId / accessKeySecret against a NameServer and a broker that
// run with aclEnable=true (issue 16): the signed client sends and consumes; a wrong secret,
// an unknown key and a denied topic are refused with NO_PERMISSION; mqadmin signs with
// --accessKey/--secretKey and an admin call from a non-admin account is refused.

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { Producer, Consumer, Message } = require('ali-ons');
const { Cluster, quietLogger, httpclient, waitUntil, sleep } = require('./lib/cluster');
const { runChecks, startNamesrv } = require('./apogee_harness');

const ACL = `accounts:
  - accessKey: adminAccess
    secretKey: adminSecret1
    admin: true
  - accessKey: userAccess
    secretKey: userSecret1
    defaultTopicPerm: DENY
    defaultGroupPerm: SUB
    topicPerms:
      - AclCompatTopic=PUB|SUB
`;

// ali-ons's send loop swallows NO_PERMISSION and throws a generic "still failed" error;
// record the MQClientException its own remoting layer built from our answer (code and
// remark) so the check sees why the broker refused.
function recordSendErrors(producer) {
  const errors = [];
  const send = producer.sendKernelImpl.bind(producer);
  producer.sendKernelImpl = async (...args) => {
    try {
      return await send(...args);
    } catch (e) {
      errors.push(e);
      throw e;
    }
  };
  return errors;
}

function assertRefused(errors, remark) {
  assert.ok(errors.length > 0, 'no error from the broker was recorded');
  const e = errors[errors.length - 1];
  assert.strictEqual(e.name, 'MQClientException', e.stack);
  assert.strictEqual(e.code, 16, `code ${e.code}: ${e.message}`);
  assert.match(e.message, remark);
  assert.doesNotMatch(e.message, /userSecret1|adminSecret1|wrongSecret1/);
}

function closeQuietly(client) {
  return client ? Promise.race([ client.close().catch(() => {}), sleep(5000) ]) : undefined;
}

function mqadmin(args) {
  return new Promise(resolve => {
    execFile(path.join(process.env.APOGEE_BIN_DIR, 'mqadmin'), args, { timeout: 30000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code || 1) : 0, stdout, stderr }));
  });
}

runChecks('acl_ali_ons', async check => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apogee-acl-'));
  const aclFile = path.join(dir, 'plain_acl.yml');
  const credentials = path.join(dir, 'admin.yml');
  fs.writeFileSync(aclFile, ACL);
  fs.writeFileSync(credentials, 'accessKey: adminAccess\nsecretKey: adminSecret1\n');
  const cluster = new Cluster();
  const clients = [];
  try {
    cluster.namesrv = await startNamesrv({ aclEnable: 'true', aclFilePath: aclFile });
    const broker = await cluster.addBroker('broker-a', {
      aclEnable: 'true', aclFilePath: aclFile, aclCredentialsFile: credentials,
    });
    const ns = cluster.namesrv.addr;
    const topic = 'AclCompatTopic';
    const updateTopic = (t, keys) => mqadmin([ 'updateTopic', '-n', ns, '-b', broker.addr, '-t', t,
      '-r', '2', '-w', '2', ...keys ]);

    await check('mqadmin updateTopic without keys is refused (NO_PERMISSION)', async () => {
      const r = await updateTopic(topic, []);
      assert.notStrictEqual(r.code, 0, r.stdout);
      assert.match(r.stderr, /No accessKey/);
    });
    await check('mqadmin updateTopic signed by a non-admin account is refused', async () => {
      const r = await updateTopic(topic, [ '--accessKey', 'userAccess', '--secretKey', 'userSecret1' ]);
      assert.notStrictEqual(r.code, 0, r.stdout);
      assert.match(r.stderr, /Need admin permission/);
    });
    await check('mqadmin updateTopic signed by the admin account creates the topics', async () => {
      for (const t of [ topic, 'AclDeniedTopic' ]) {
        const r = await updateTopic(t, [ '--accessKey', 'adminAccess', '--secretKey', 'adminSecret1' ]);
        assert.strictEqual(r.code, 0, r.stderr);
      }
      await cluster.waitForRoute(topic, 1);
      await cluster.waitForRoute('AclDeniedTopic', 1);
    });

    const user = { accessKeyId: 'userAccess', accessKeySecret: 'userSecret1' };
    const producer = new Producer(Object.assign({
      httpclient, nameSrv: ns, producerGroup: 'AclCompatProducer', instanceName: 'acl-producer',
      logger: quietLogger, retryTimesWhenSendFailed: 0,
    }, user));
    clients.push(producer);
    await producer.ready();
    const producerErrors = recordSendErrors(producer);
    const sent = [];
    await check('ali-ons with accessKeyId/accessKeySecret sends: SEND_OK', async () => {
      for (let i = 0; i < 4; i++) {
        const r = await producer.send(new Message(topic, 'TagA', `acl ${i}`));
        assert.strictEqual(r.sendStatus, 'SEND_OK', JSON.stringify(r));
        sent.push(r.msgId);
      }
    });
    await check('a send to a denied topic is refused naming the permission', async () => {
      await assert.rejects(producer.send(new Message('AclDeniedTopic', 'TagA', 'no')));
      assertRefused(producerErrors, /No PUB permission for topic:AclDeniedTopic/);
    });

    for (const [ what, keys, remark ] of [
      [ 'a wrong secret', { accessKeyId: 'userAccess', accessKeySecret: 'wrongSecret1' },
        /Check signature failed for accessKey=userAccess/ ],
      [ 'an unknown access key', { accessKeyId: 'nobodyKnows', accessKeySecret: 'userSecret1' },
        /No acl config for nobodyKnows/ ],
    ]) {
      await check(`${what} is refused`, async () => {
        const bad = new Producer(Object.assign({
          httpclient, nameSrv: ns, producerGroup: 'AclCompatBad', instanceName: `acl-bad-${what.length}`,
          logger: quietLogger, retryTimesWhenSendFailed: 0,
        }, keys));
        clients.push(bad);
        bad.on('error', () => {});
        await bad.ready();
        const errors = recordSendErrors(bad);
        await assert.rejects(bad.send(new Message(topic, 'TagA', 'no')));
        assertRefused(errors, remark);
      });
    }

    const received = [];
    const consumer = new Consumer(Object.assign({
      httpclient, nameSrv: ns, consumerGroup: 'AclCompatConsumer', instanceName: 'acl-consumer',
      consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET', logger: quietLogger,
    }, user));
    clients.push(consumer);
    consumer.on('error', e => console.error('[consumer error]', e.message));
    consumer.subscribe(topic, '*', async msg => { received.push(msg.msgId); });
    await consumer.ready();
    await check('ali-ons with keys consumes every message it sent', async () => {
      await waitUntil('4 messages', () => received.length >= 4, 40000);
      assert.deepStrictEqual([ ...new Set(received) ].sort(), sent.slice().sort());
    });
  } finally {
    for (const c of clients) await closeQuietly(c);
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
