import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedSkills, type PublishedSkill } from '../../../../lib/agent-skills.ts';
import { textResponse } from '../../../../lib/site-documents.ts';

/** /.well-known/agent-skills/<name>/SKILL.md, one per skill (src/lib/agent-skills.ts). */
export const getStaticPaths = (async () =>
  (await publishedSkills()).map((skill) => ({
    params: { name: skill.name },
    props: { skill },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ skill: PublishedSkill }> = ({ props }) =>
  textResponse(props.skill.markdown, 'text/markdown; charset=utf-8');
