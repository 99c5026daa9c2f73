#!/usr/bin/env node
console.log('repa-daemon');
