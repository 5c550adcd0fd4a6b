/** Whether a URL names this machine: localhost, a `*.localhost` name, 127.x.x.x or [::1]. */ export function isLoopbackUrl(
  url: string,
): boolean {
  const hostname = URL.parse(url)?.hostname ?? '';
  return /^(localhost|.+\.localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/.test(hostname);
}
