import { signed, specKey } from '../../support/fixtures.js';
import { fields, type NamedCase } from './named-request.js';

/** Named cases of headers: the Content-Type and the x-api-key, as proxies and gateways write them. */
export const headerCases: readonly NamedCase[] = [
  {
    name: 'no Content-Type',
    status: 415,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'Content-Type': undefined } }),
  },
  {
    name: 'Content-Type text/plain',
    status: 415,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'Content-Type': 'text/plain' } }),
  },
  {
    name: 'Content-Type application/json; charset=utf-8',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    }),
  },
  {
    name: 'Content-Type in upper case, header name in upper case',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'Content-Type': undefined, 'CONTENT-TYPE': 'APPLICATION/JSON' },
    }),
  },
  {
    name: 'an x-api-key with surrounding spaces and tabs',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'x-api-key': ` \t${specKey}  ` } }),
  },
  {
    name: 'an x-api-key header name in upper case',
    status: 204,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'x-api-key': undefined, 'X-API-KEY': specKey },
    }),
  },
  {
    name: 'a key of the right length but the wrong value',
    status: 401,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'x-api-key': `${specKey.slice(0, -1)}${specKey.endsWith('0') ? '1' : '0'}` },
    }),
  },
  {
    name: 'the key followed by a NUL character',
    status: 401,
    request: (ref) => ({ body: signed(fields(ref)), headers: { 'x-api-key': `${specKey}\u0000` } }),
  },
  {
    name: 'the key in upper case',
    status: 401,
    request: (ref) => ({
      body: signed(fields(ref)),
      headers: { 'x-api-key': specKey.toUpperCase() },
    }),
  },
];
