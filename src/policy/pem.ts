/**
 * The certificates of a PEM file as CTRLRun's `_check_pin_correspondence` reads them: the text is
 * split after each `-----END CERTIFICATE-----`; every piece holding `BEGIN CERTIFICATE` must, once
 * trimmed, be exactly one `-----BEGIN CERTIFICATE-----` … `-----END CERTIFICATE-----` block (so
 * text before the first block is refused, as Python's `ssl.PEM_cert_to_DER_cert` refuses it), and
 * its base64 body is the DER. Text after the last block is ignored.
 */
export function pemCertificates(text: string): { ok: true; blocks: Array<{ pem: string; der: Uint8Array }> } | { ok: false; problem: string } {
  const blocks: Array<{ pem: string; der: Uint8Array }> = [];
  for (const piece of text.split(PEM_FOOTER)) {
    if (!piece.includes('BEGIN CERTIFICATE')) continue;
    const pem = `${piece}${PEM_FOOTER}`.trim();
    if (!pem.startsWith(PEM_HEADER)) return { ok: false, problem: `a block does not start with ${PEM_HEADER}` };
    const body = pem.slice(PEM_HEADER.length, pem.length - PEM_FOOTER.length).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 !== 0) return { ok: false, problem: 'a block is not base64' };
    blocks.push({ pem: `${pem}\n`, der: Uint8Array.from(Buffer.from(body, 'base64')) });
  }
  return { ok: true, blocks };
}

/** Lowercase hex SHA-256 of bytes (a certificate's DER). */
export function sha256Hex(bytes: Uint8Array): string {
  // node:crypto loaded when a certificate is pinned, not whenever the policy's code loads (start-up)
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');
}

const PEM_HEADER = '-----BEGIN CERTIFICATE-----';
const PEM_FOOTER = '-----END CERTIFICATE-----';
