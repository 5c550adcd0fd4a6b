// Hash check (views/hash-check-view.ts): the server sends the texts the receiver would hash for
// the pasted body (never the key); this script appends the key to each, exactly as the receiver
// does (`SHA-256(UTF-8(text + key))`, docs/callback-hash.md), hashes with Web Crypto and shows
// which text matches. The key is read here and sent nowhere.
const form = document.getElementById('hash-check-form');
const result = document.getElementById('hash-result');
const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function element(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

// Controls, bidi and zero-width characters as visible U+XXXX marks, as the server's shown().
function shownText(text, unsafe) {
  const node = element('pre', { class: 'hashed' });
  let at = 0;
  for (const match of text.matchAll(new RegExp(unsafe, 'gu'))) {
    node.append(text.slice(at, match.index));
    const code = match[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0');
    node.append(
      element('span', { class: 'unsafe', title: 'invisible or control character' }, `U+${code}`),
    );
    at = match.index + match[0].length;
  }
  node.append(text.slice(at));
  return node;
}

function show(...nodes) {
  result.replaceChildren(...nodes);
}

function candidateList(candidates, digests, unsafe) {
  return element(
    'ol',
    { class: 'candidates' },
    ...candidates.map((candidate, index) =>
      element(
        'li',
        {},
        element('p', {}, candidate.form),
        element('p', { class: 'mono' }, `sha256 ${digests[index]}`),
        shownText(candidate.text, unsafe),
      ),
    ),
  );
}

async function check(body, key) {
  const response = await fetch('/hash-check/texts', {
    method: 'POST',
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-csrf-token': token },
    body,
  });
  const answer = await response
    .json()
    .catch(() => ({ error: `The console answered ${response.status}.` }));
  if (!response.ok || answer.error) {
    show(
      element(
        'p',
        { class: 'notice error', role: 'alert' },
        answer.error ?? `Refused (${response.status}).`,
      ),
    );
    return;
  }
  const { received, candidates, verdict, unsafe } = answer;
  const digests = await Promise.all(candidates.map(({ text }) => sha256Hex(text + key)));
  // As the receiver: 64 hex digits in either case, compared as the digest they spell.
  const wellFormed = received !== undefined && /^[0-9a-fA-F]{64}$/.test(received);
  const matched = wellFormed ? digests.indexOf(received.toLowerCase()) : -1;
  if (matched >= 0) {
    const candidate = candidates[matched];
    show(
      element('p', { class: 'notice ok', id: 'hash-verdict' }, candidate.verified),
      element('p', {}, 'The text that was hashed (the key follows it, not shown):'),
      shownText(candidate.text, unsafe),
    );
    return;
  }
  const headline = received === undefined ? verdict.noHash : verdict.notVerified;
  show(
    element('p', { class: 'notice error', id: 'hash-verdict' }, headline),
    ...(received === undefined ? [] : [element('p', {}, verdict.likelyCauses)]),
    candidateList(candidates, digests, unsafe),
  );
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const body = form.querySelector('#hash-body').value;
  const key = form.querySelector('#hash-key').value;
  show(element('p', {}, 'Checking…'));
  check(body, key).catch((error) => {
    show(
      element('p', { class: 'notice error', role: 'alert' }, `The check failed: ${error.message}`),
    );
  });
});
