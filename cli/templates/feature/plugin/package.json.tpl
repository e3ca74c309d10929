{
  "name": "@atende/plugin-__ID__",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "main": "./src/index.ts",
  "exports": {
    ".": "./src/index.ts",
    "./contract": "./src/contract.ts"
  }
}
