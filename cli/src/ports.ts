import net from 'node:net';

export type PortState = { free: true } | { free: false; reason: string };

/** Tries to bind host:port the way the server will, and says why it cannot. */
export function probePort(host: string, port: number): Promise<PortState> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve({ free: false, reason: `a porta ${port} já está em uso por outro processo. Pare-o ou escolha outra porta (PORT=${port === 8080 ? 8081 : 8080} ou --port)` });
      else if (err.code === 'EACCES') resolve({ free: false, reason: `sem permissão para usar a porta ${port} (portas abaixo de 1024 exigem root). Escolha outra porta (PORT ou --port)` });
      else if (err.code === 'EADDRNOTAVAIL') resolve({ free: false, reason: `o endereço ${host} não existe nesta máquina. Corrija HOST (ex.: 0.0.0.0 ou 127.0.0.1)` });
      else resolve({ free: false, reason: `não foi possível usar ${host}:${port}: ${err.message}` });
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve({ free: true })));
  });
}
