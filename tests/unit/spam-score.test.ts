import { describe, expect, it } from 'vitest';
import {
  FORM_TOKEN_CLOCK_SKEW_MS,
  FORM_TOKEN_MAX_AGE_MS,
  FORM_TOKEN_MAX_MESSAGES,
  FormTokens,
} from '../../functions/contact/form-token.ts';
import { SPAM_RULES, spamScore } from '../../functions/contact/spam-score.ts';

const HUMAN = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  message: 'Hello Ada, I enjoyed reading about Leakhound.',
};
const FILLED_BY_A_PERSON = { honeypot: '', token: 'ok' } as const;

describe('spamScore', () => {
  it('lets an ordinary message through, from the form or the API, with nothing to say', () => {
    expect(spamScore(HUMAN)).toEqual({ spam: false, score: 0, reasons: [] });
    expect(spamScore(HUMAN, FILLED_BY_A_PERSON)).toEqual({ spam: false, score: 0, reasons: [] });
    const twoLinks = spamScore({ ...HUMAN, message: 'My work: https://a.example and www.b.example, thanks!' });
    expect(twoLinks).toEqual({ spam: false, score: 2, reasons: ['2 links (+2)'] });
  });

  it(`judges more than ${SPAM_RULES.maxLinks} links spam on its own`, () => {
    const links = Array.from({ length: SPAM_RULES.maxLinks + 1 }, (_, i) => `https://shop${i}.example/buy`).join(' ');
    expect(spamScore({ ...HUMAN, message: `Cheap offers ${links}` })).toEqual({
      spam: true,
      score: SPAM_RULES.threshold,
      reasons: [`${SPAM_RULES.maxLinks + 1} links (+${SPAM_RULES.threshold})`],
    });
  });

  it('judges the form guards alone: a filled honeypot, and every token that is not ok', () => {
    expect(spamScore(HUMAN, { honeypot: 'http://bot.example', token: 'ok' })).toMatchObject({
      spam: true,
      reasons: [`hidden field filled (+${SPAM_RULES.threshold})`],
    });
    for (const [token, reason] of [
      ['too_fast', 'form sent too fast'],
      ['missing', 'form token missing'],
      ['invalid', 'form token invalid'],
      ['expired', 'form token expired'],
      ['reused', `form token used for more than ${FORM_TOKEN_MAX_MESSAGES} messages`],
    ] as const) {
      expect(spamScore(HUMAN, { honeypot: '', token }), token).toMatchObject({
        spam: true,
        reasons: [`${reason} (+${SPAM_RULES.threshold})`],
      });
    }
  });

  it('adds up the weaker hints: a name that is a link or the email, a message that is only a link or wordless', () => {
    expect(spamScore({ ...HUMAN, name: 'grace@example.com' })).toMatchObject({ spam: false, score: 3 });
    expect(spamScore({ ...HUMAN, name: 'https://seo.example' })).toMatchObject({ spam: false, score: 4 });
    expect(spamScore({ ...HUMAN, message: '1234567890 !!!' })).toMatchObject({ spam: false, score: 3 });
    expect(spamScore({ ...HUMAN, message: 'https://seo.example/offer' })).toEqual({
      spam: true,
      score: 5,
      reasons: ['1 link (+1)', 'message is only a link (+4)'],
    });
    expect(
      spamScore({ ...HUMAN, name: 'Grace@Example.com', message: 'See https://a.example https://b.example' }),
    ).toEqual({
      spam: true,
      score: 5,
      reasons: ['2 links (+2)', 'name is the email (+3)'],
    });
    expect(spamScore({ ...HUMAN, name: 'www.seo.example', message: 'Visit https://seo.example today.' })).toMatchObject(
      {
        spam: true,
        score: 5,
      },
    );
  });

  it('counts links without a scheme: www. hosts and host names followed by a path, not words with a dot', () => {
    expect(spamScore({ ...HUMAN, message: 'See example.com/path and www.example.com today.' })).toMatchObject({
      score: 2,
      reasons: ['2 links (+2)'],
    });
    expect(spamScore({ ...HUMAN, message: 'cheap-pills.shop/buy' })).toEqual({
      spam: true,
      score: 5,
      reasons: ['1 link (+1)', 'message is only a link (+4)'],
    });
    const four = 'a.example/1 b.example/2 (c.example.org/3) www.d.example';
    expect(spamScore({ ...HUMAN, message: `Offers: ${four}` })).toMatchObject({
      spam: true,
      reasons: [`4 links (+${SPAM_RULES.threshold})`],
    });
    expect(spamScore({ ...HUMAN, name: 'seo.example/ranking' }).reasons).toEqual(['link in the name (+4)']);
    // A developer's message: tools, versions and fractions are not links.
    const stack = 'I use Node.js/Deno, ASP.NET/C# and e.g. TypeScript 5.9/6.0 about 1/2 of the time, and/or Go.';
    expect(spamScore({ ...HUMAN, message: stack })).toEqual({ spam: false, score: 0, reasons: [] });
  });

  it('counts words in any script, so a message without Latin letters is not wordless', () => {
    expect(spamScore({ ...HUMAN, message: '你好，我想和你合作一个项目。' })).toMatchObject({ spam: false, score: 0 });
  });
});

describe('FormTokens', () => {
  const tokens = new FormTokens(Buffer.alloc(32, 7), 3000);
  const issuedAt = Date.UTC(2026, 0, 1);
  const token = tokens.issue(issuedAt);

  it('tells a form filled in time from one sent too fast, and a token past a day from a fresh one', () => {
    expect(tokens.check(token, issuedAt + 2999)).toBe('too_fast');
    expect(tokens.check(token, issuedAt + 3000)).toBe('ok');
    expect(tokens.check(token, issuedAt + FORM_TOKEN_MAX_AGE_MS)).toBe('ok');
    expect(tokens.check(token, issuedAt + FORM_TOKEN_MAX_AGE_MS + 1)).toBe('expired');
  });

  it('refuses a missing, altered, foreign or future token', () => {
    expect(tokens.check(undefined, issuedAt)).toBe('missing');
    expect(tokens.check('', issuedAt)).toBe('missing');
    const [issued, signature] = token.split('.') as [string, string];
    const earlier = (issuedAt - 60_000).toString(36);
    expect(tokens.check(`${earlier}.${signature}`, issuedAt)).toBe('invalid');
    expect(tokens.check(`${issued}.${signature.slice(1)}x`, issuedAt)).toBe('invalid');
    expect(tokens.check(`${token}.more`, issuedAt + 5000)).toBe('invalid');
    expect(tokens.check('garbage', issuedAt)).toBe('invalid');
    expect(new FormTokens(Buffer.alloc(32, 8), 3000).check(token, issuedAt + 5000)).toBe('invalid');
    expect(tokens.check(tokens.issue(issuedAt + FORM_TOKEN_CLOCK_SKEW_MS + 1), issuedAt)).toBe('invalid');
  });

  it('accepts a token issued by a clock up to a few minutes ahead of this one', () => {
    expect(tokens.check(tokens.issue(issuedAt + 1), issuedAt)).toBe('ok');
    expect(tokens.check(tokens.issue(issuedAt + FORM_TOKEN_CLOCK_SKEW_MS), issuedAt)).toBe('ok');
  });

  it('with a minimum of 0 accepts a form sent at once', () => {
    const quick = new FormTokens(Buffer.alloc(32, 7), 0);
    expect(quick.check(quick.issue(issuedAt), issuedAt)).toBe('ok');
  });
});
