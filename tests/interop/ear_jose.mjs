// SPDX-License-Identifier: MIT
// node ear_jose.mjs PUBKEY.pem EAR.jwt: verify otattest-verify's EAR with
// npm `jose` (pinned in package-lock.json), nothing of otattest's: ES256
// only, the signature against the verifier's public key (SPKI PEM). Prints
// {"header":...,"payload":...} as JSON on success; on refusal the reason
// on stderr and exit 1.
import { readFileSync } from 'node:fs';
import { importSPKI, jwtVerify } from 'jose';

const [pubPath, jwtPath] = process.argv.slice(2);
if (!pubPath || !jwtPath) {
	console.error('usage: node ear_jose.mjs PUBKEY.pem EAR.jwt');
	process.exit(2);
}
try {
	const key = await importSPKI(readFileSync(pubPath, 'utf8'), 'ES256');
	const jwt = readFileSync(jwtPath, 'utf8').trim();
	const { payload, protectedHeader } = await jwtVerify(jwt, key, {
		algorithms: ['ES256'],
		typ: 'JWT',
		requiredClaims: ['iat'],
	});
	console.log(JSON.stringify({ header: protectedHeader, payload }));
} catch (e) {
	console.error(`jose refused the EAR: ${e.code ?? ''} ${e.message}`);
	process.exit(1);
}
