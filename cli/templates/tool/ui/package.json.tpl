{
  "name": "@atende/ui-plugin-__ID__",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "build": "vite build"
  },
  "dependencies": {
    "@atende/plugin-__ID__": "0.1.0"
  }
}
