<!doctype html>
<html lang="pt-BR">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>__LABEL__ · Atende (dev)</title>
  </head>
  <body>
    <!-- Standalone page for working on the remote alone; in the product the shell mounts it. -->
    <div id="root"></div>
    <script type="module" src="/src/dev.tsx"></script>
  </body>
</html>
