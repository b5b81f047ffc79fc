/**
 * Running a function against the view page's `viewPage` object, with a typed argument and
 * result: `inPage(page, (vp, row) => vp.a.editor.lineTextForScreenRow(row), 3)`.
 */
import type { Page } from 'playwright-core'
import type { ViewPage } from './view-page.js'

/**
 * Runs `fn(viewPage, arg)` in `page` and returns its (serializable) result. `fn` may use only
 * its parameters and browser globals: it is sent to the page as source.
 *
 * @example const text = await inPage(page, (vp) => vp.a.editor.getText())
 */
export const inPage = async <R, A = undefined>(
  page: Page,
  fn: (vp: ViewPage, arg: A) => R | Promise<R>,
  arg?: A,
): Promise<R> =>
  page.evaluate(
    async ([source, value]) => {
      const run = new Function('vp', 'arg', `return (${source})(vp, arg)`)
      return run((globalThis as unknown as { viewPage: ViewPage }).viewPage, value)
    },
    [fn.toString(), arg] as const,
  ) as Promise<R>
