// `node --import ./hide-module.mjs …`: the package named in HIDE_MODULE cannot be resolved, as in an
// install without it (an optional peer dependency left out).
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (specifier === ${JSON.stringify(process.env.HIDE_MODULE ?? '')}) {
        const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
        error.code = 'ERR_MODULE_NOT_FOUND';
        throw error;
      }
      return next(specifier, context);
    }`)}`,
);
