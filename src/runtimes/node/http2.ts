// The `http2` module: its constants (header names, methods, status codes),
// which packages read at load time (sigstore in the npm CLI). There is no
// HTTP/2 transport in agentOS: connect and createServer fail with Node's
// ERR_HTTP2_* shape so callers see a clear error.

import { nodeError } from './errors.js';

const HEADERS = `:status :method :authority :scheme :path :protocol accept-encoding accept-language accept-ranges
  accept access-control-allow-credentials access-control-allow-headers access-control-allow-methods
  access-control-allow-origin access-control-expose-headers access-control-request-headers
  access-control-request-method age authorization cache-control connection content-disposition
  content-encoding content-length content-type cookie date etag forwarded host if-modified-since
  if-none-match if-range last-modified link location range referer server set-cookie
  strict-transport-security transfer-encoding te upgrade-insecure-requests upgrade user-agent vary
  x-content-type-options x-frame-options keep-alive proxy-connection x-xss-protection alt-svc
  content-security-policy early-data expect-ct origin purpose timing-allow-origin x-forwarded-for
  priority accept-charset access-control-max-age allow content-language content-location content-md5
  content-range dnt expect expires from if-match if-unmodified-since max-forwards prefer
  proxy-authenticate proxy-authorization refresh retry-after trailer tk via warning www-authenticate
  http2-settings`;
const METHODS = `ACL BASELINE-CONTROL BIND CHECKIN CHECKOUT CONNECT COPY DELETE GET HEAD LABEL LINK LOCK MERGE
  MKACTIVITY MKCALENDAR MKCOL MKREDIRECTREF MKWORKSPACE MOVE OPTIONS ORDERPATCH PATCH POST PRI
  PROPFIND PROPPATCH PUT REBIND REPORT SEARCH TRACE UNBIND UNCHECKOUT UNLINK UNLOCK UPDATE
  UPDATEREDIRECTREF VERSION-CONTROL`;
const STATUS = `CONTINUE:100 SWITCHING_PROTOCOLS:101 PROCESSING:102 EARLY_HINTS:103 OK:200 CREATED:201 ACCEPTED:202
  NON_AUTHORITATIVE_INFORMATION:203 NO_CONTENT:204 RESET_CONTENT:205 PARTIAL_CONTENT:206
  MULTI_STATUS:207 ALREADY_REPORTED:208 IM_USED:226 MULTIPLE_CHOICES:300 MOVED_PERMANENTLY:301
  FOUND:302 SEE_OTHER:303 NOT_MODIFIED:304 USE_PROXY:305 TEMPORARY_REDIRECT:307 PERMANENT_REDIRECT:308
  BAD_REQUEST:400 UNAUTHORIZED:401 PAYMENT_REQUIRED:402 FORBIDDEN:403 NOT_FOUND:404
  METHOD_NOT_ALLOWED:405 NOT_ACCEPTABLE:406 PROXY_AUTHENTICATION_REQUIRED:407 REQUEST_TIMEOUT:408
  CONFLICT:409 GONE:410 LENGTH_REQUIRED:411 PRECONDITION_FAILED:412 PAYLOAD_TOO_LARGE:413
  URI_TOO_LONG:414 UNSUPPORTED_MEDIA_TYPE:415 RANGE_NOT_SATISFIABLE:416 EXPECTATION_FAILED:417
  TEAPOT:418 MISDIRECTED_REQUEST:421 UNPROCESSABLE_ENTITY:422 LOCKED:423 FAILED_DEPENDENCY:424
  TOO_EARLY:425 UPGRADE_REQUIRED:426 PRECONDITION_REQUIRED:428 TOO_MANY_REQUESTS:429
  REQUEST_HEADER_FIELDS_TOO_LARGE:431 UNAVAILABLE_FOR_LEGAL_REASONS:451 INTERNAL_SERVER_ERROR:500
  NOT_IMPLEMENTED:501 BAD_GATEWAY:502 SERVICE_UNAVAILABLE:503 GATEWAY_TIMEOUT:504
  HTTP_VERSION_NOT_SUPPORTED:505 VARIANT_ALSO_NEGOTIATES:506 INSUFFICIENT_STORAGE:507
  LOOP_DETECTED:508 BANDWIDTH_LIMIT_EXCEEDED:509 NOT_EXTENDED:510 NETWORK_AUTHENTICATION_REQUIRED:511`;

function constants(): Record<string, string | number> {
  const c: Record<string, string | number> = {};
  for (const h of HEADERS.split(/\s+/)) c[`HTTP2_HEADER_${h.replace(/^:/, '').replaceAll('-', '_').toUpperCase()}`] = h;
  for (const m of METHODS.split(/\s+/)) c[`HTTP2_METHOD_${m.replaceAll('-', '_')}`] = m;
  for (const s of STATUS.split(/\s+/)) {
    const [name, code] = s.split(':');
    c[`HTTP_STATUS_${name}`] = Number(code);
  }
  return c;
}

export function makeHttp2(): Record<string, unknown> {
  const none = (what: string) => () => {
    throw nodeError(Error, 'ERR_HTTP2_UNSUPPORTED', `http2.${what}: agentOS's node runtime has no HTTP/2 transport (use http or https)`);
  };
  return { constants: constants(), connect: none('connect'), createServer: none('createServer'), createSecureServer: none('createSecureServer') };
}
