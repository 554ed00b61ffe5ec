#!/usr/bin/env node
import { launch } from './launch.js';

process.exitCode = await launch(process.argv.slice(2));
