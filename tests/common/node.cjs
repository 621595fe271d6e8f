// node.cjs: helpers the node tests share (tests/browser, tests/webhook).
'use strict';
const net = require('node:net');

// A free TCP port on 127.0.0.1 (bound and released), as a promise.
function freePort() {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.on('error', reject);
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address();
            s.close(() => resolve(port));
        });
    });
}

module.exports = { freePort };
