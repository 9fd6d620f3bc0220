import { Context, initOptions, type Options } from 'mingo/core';
import { Query } from 'mingo/query';
import { Aggregator } from 'mingo/aggregator';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { isPlainObject, type Doc } from './values';

const context = Context.init()
  .addAccumulatorOps(accumulatorOperators)
  .addExpressionOps(expressionOperators)
  .addPipelineOps(pipelineOperators)
  .addProjectionOps(projectionOperators)
  .addQueryOps(queryOperators)
  .addWindowOps(windowOperators);

export function mingoOptions(extra: Partial<Options> = {}): Options {
  return initOptions({ context, useStrictMode: true, scriptEnabled: false, useGlobalContext: false, ...extra });
}

const baseOptions = mingoOptions();

export type Matcher = (doc: Doc) => boolean;

const matchAll: Matcher = () => true;

export function compileFilter(filter: unknown): Matcher {
  if (filter === undefined || filter === null) return matchAll;
  if (!isPlainObject(filter)) throw new Error('filter must be an object');
  if (Object.keys(filter).length === 0) return matchAll;
  const q = new Query(filter, baseOptions);
  return (doc) => q.test(doc);
}

export function project(docs: Doc[], projection: unknown): Doc[] {
  if (!isPlainObject(projection) || Object.keys(projection).length === 0 || docs.length === 0) return docs;
  return new Query({}, baseOptions).find(docs, projection).all() as Doc[];
}

export function aggregate(docs: Doc[], pipeline: Doc[], resolver: (name: string) => Doc[]): Doc[] {
  const agg = new Aggregator(pipeline, mingoOptions({ collectionResolver: resolver }));
  return agg.run(docs) as Doc[];
}
