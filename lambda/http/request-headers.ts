import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * A request header by name, case-insensitively (HTTP header names are; API Gateway passes them
 * through with the sender's spelling). Surrounding whitespace is not part of a field value
 * (RFC 9110, section 5.5), so it is trimmed.
 */
export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value.trim();
  }
  return undefined;
}
