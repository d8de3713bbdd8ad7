//! The rule tier's patterns: one row per phrasing, grouped by intent. A row names the
//! intent, the confidence it earns when its slots are all there, and a regex whose named
//! groups become slots (see `fill.rs` for what each group name means).
//!
//! Placeholders expanded before compiling: `\b` is an ASCII word boundary (so "帮我hire"
//! still has a boundary before "hire"), `{CNDEPT}` a Chinese department name ("市场部"),
//! `{WHO}` one English word or a short run of Chinese, `{EN2}` an optional capitalised
//! second English word ("Zhang Wei"). Every pattern is case-insensitive.

use crate::secretary::intent::IntentKind::{self, *};

pub(super) struct Row {
    pub kind: IntentKind,
    pub conf: f32,
    pub re: &'static str,
}

const fn r(kind: IntentKind, conf: f32, re: &'static str) -> Row {
    Row { kind, conf, re }
}

#[rustfmt::skip]
pub(super) const FRAGMENTS: &[(&str, &str)] = &[
    ("{CNDEPT}", r"[\p{Han}A-Za-z0-9&]{1,10}?(?:部门|事业部|部|组|团队|中心)"),
    ("{EN2}", r"(?-i:\s+[A-Z][a-z]+)?"),
    ("{WHO}", r"(?:[A-Za-z][A-Za-z'.-]*(?-i:\s+[A-Z][a-z]+)?|[\p{Han}]{1,4})"),
    ("{YES}", r"(?:(?:ok|okay|yes|yeah|yep|sure|fine|alright|good|great|好的|好|可以|行|嗯|没问题)\s*[,.!]?\s*)?"),
    ("{NO}", r"(?:(?:no|nope|nah|sorry|算了|不行|不)\s*[,.!]?\s*)?"),
    // A word of thanks or praise, alone or one after another ("thanks, perfect").
    ("{NICE}", r"(?:hi|hello|hey|hiya|yo|howdy|good\s+(?:morning|afternoon|evening|night)|morning|evening|(?:ok(?:ay)?\s+)?thanks?(?:\s+you)?(?:\s+(?:so\s+much|a\s+lot|very\s+much))?|thx|ty|cheers|how\s+are\s+you(?:\s+doing)?|how's\s+it\s+going|what's\s+up|sup|lol|lmao|haha+|hehe+|bye|goodbye|see\s+you|see\s+ya|good\s+job|great\s+job|nice|cool|awesome|great|perfect|(?:that's|that\s+is)\s+(?:great|perfect|nice|good|awesome|helpful)|you're\s+the\s+best|you\s+rock|well\s+done|你好|您好|嗨|哈喽|谢谢你?|谢了|谢啦|多谢|感谢|早上好|早安|早|中午好|下午好|晚上好|晚安|辛苦了|辛苦|哈+|呵呵|嘿嘿|拜拜|再见|好的|收到|太棒了|太好了|很好|厉害|在吗)"),
    ("{OBJ}", r"(?:\s*(?:(?:the|this|that)\s+(?:[a-z]+\s+)?(?:request|one|item|proposal|approval)|这个[\p{Han}]{0,4}申请|all of them|all pending|all|everything|it|that|this|them|这个申请|这个请求|这个|那个|申请|请求|一下|它|掉))*"),
    ("{REF}", r"(?:\s*(?P<ref>#\s*\d+|(?:request|item|number|no\.?)\s*#?\s*\d+|\d+\s*号|第\s*\d+\s*[个条项]))?"),
    ("{TAIL}", r"(?:\s*(?:吧|了|啊|呀|哈|吗))*"),
    ("{REASON}", r"(?:\s*(?:,|because|since|due to|-|:|因为)\s*(?P<reason>.+))?"),
];

#[rustfmt::skip]
pub(super) const ROWS: &[Row] = &[
    // ---- hire_employee: the pattern spots the request, `fill` finds role/count/department/name.
    r(HireEmployee, 0.92, r"\b(?:hire|hiring|recruit|recruiting|onboard|bring\s+on|bring\s+in|staff\s+up)\b"),
    r(HireEmployee, 0.92, r"招聘|招募|招人|聘请|聘用|新招|招|聘"),
    // weaker triggers count only with a role ("we need a Data department" is no hire)
    r(HireEmployee, 0.88, r"\b(?:get\s+me|find\s+me|we\s+need|i\s+need|i'd\s+like|i\s+would\s+like|we'd\s+like|we\s+would\s+like|we\s+could\s+(?:really\s+)?use|we\s+want|looking\s+for|add|we're\s+short|short\s+of)\b"),
    r(HireEmployee, 0.88, r"\b(?:get|need|needs|want|could\s+use)\s+(?:us\s+)?(?:another|a|an|one|two|three|four|five|\d+|some|more|a\s+couple\s+of|a\s+few)\b"),
    r(HireEmployee, 0.89, r"(?-i:^(?P<dept>[A-Z][A-Za-z&-]+(?:\s+[A-Z][A-Za-z&-]+)?)\s+(?:needs|wants|could use|is short of)\b)"),
    r(HireEmployee, 0.88, r"(?:需要|要|缺|找|来|雇)\s*(?:\d+|[一二两三四五六七八九十几]+)?\s*(?:个|名|位)"),
    r(HireEmployee, 0.6, r"缺人|人手不够|人手不足|需要人手|加人"),
    // ---- fire_employee
    r(FireEmployee, 0.93, r"\b(?:fire|terminate|dismiss|sack|lay\s+off|let\s+go\s+of|kick\s+out|boot)\b\s*(?:掉\s*)?(?P<name>{WHO})?"),
    r(FireEmployee, 0.93, r"\blet\s+(?P<name>{WHO})\s+go\b"),
    r(FireEmployee, 0.92, r"\b(?:kick|boot|throw)\s+(?P<name>{WHO})\s+out\b"),
    r(FireEmployee, 0.88, r"^(?P<name>{WHO})\s+(?:has\s+to|needs\s+to|got\s+to|must|should)\s+go$"),
    r(FireEmployee, 0.86, r"\bget\s+rid\s+of\s+(?P<name>{WHO})$"),
    r(FireEmployee, 0.9, r"^(?P<name>{WHO})\s+(?:is|got|gets|has\s+been|should\s+be)\s+(?:fired|terminated|let\s+go|sacked|dismissed)\b"),
    r(FireEmployee, 0.93, r"(?:开除|辞退|解雇|炒掉|炒了|裁掉|开掉|辞掉|踢掉|劝退)\s*(?P<name>[^,]*)$"),
    r(FireEmployee, 0.93, r"把\s*(?P<name>[^,]{1,20}?)\s*(?:开除|辞退|解雇|炒掉|炒了|炒鱿鱼|裁掉|开掉|开了|辞掉|踢掉|劝退|fire)"),
    r(FireEmployee, 0.9, r"^(?:让|叫)\s*(?P<name>[^,]{1,20}?)\s*(?:走人|滚蛋|离职|卷铺盖|回家)"),
    r(FireEmployee, 0.9, r"^(?P<name>[^,]{1,20}?)\s*(?:被\s*(?:开除|辞退|解雇|炒|裁)|不用来了|可以走了)"),
    // ---- transfer_employee
    r(TransferEmployee, 0.93, r"\b(?:move|transfer|reassign|switch|shift|relocate|put)\s+(?P<name>.+?)\s+(?:over\s+)?(?:from\s+(?:the\s+)?(?P<dept>.+?)\s+)?(?:to|into|in|onto|under|over\s+to)\s+(?:the\s+)?(?P<target>.+)$"),
    r(TransferEmployee, 0.9, r"^(?P<name>{WHO})\s+(?:is\s+moving|moves|is\s+going|goes|will\s+move|will\s+go|is\s+transferring|transfers|is\s+switching)\s+(?:over\s+)?(?:to|into)\s+(?:the\s+)?(?P<target>.+)$"),
    r(TransferEmployee, 0.9, r"^(?P<name>{WHO})\s+should\s+(?:join|move\s+to|go\s+to|be\s+in|work\s+in|transfer\s+to)\s+(?:the\s+)?(?P<target>.+)$"),
    r(TransferEmployee, 0.93, r"把\s*(?P<name>[^,]{1,20}?)\s*(?:从\s*(?P<dept>[^,]{1,15}?)\s*)?(?:调到|调去|调往|调至|调入|转到|转去|转入|转岗到|转岗去|调岗到|换到|挪到|放到|安排到|分到|分配到|调整到|移到)\s*(?P<target>[^,]+)$"),
    r(TransferEmployee, 0.9, r"^(?P<name>[^,]{1,20}?)\s*(?:从\s*(?P<dept>[^,]{1,15}?)\s*)?(?:调到|调去|调往|调至|转到|转去|转岗到|转岗去|调岗到|换到)\s*(?P<target>[^,]+)$"),
    r(TransferEmployee, 0.9, r"^(?:让|叫)\s*(?P<name>[^,]{1,20}?)\s*(?:去|到|加入|转去)\s*(?P<target>{CNDEPT})$"),
    r(TransferEmployee, 0.9, r"调岗\s*:?\s*(?P<name>[^,]{1,20}?)\s*(?:->|→|=>|到|去)\s*(?P<target>[^,]+)$"),
    r(TransferEmployee, 0.88, r"^(?P<name>[^,]{1,20}?)\s*以后\s*(?:归|在|去)\s*(?P<target>[^,]+?)\s*(?:管|了)?$"),
    // ---- create_department
    r(CreateDepartment, 0.92, r"\b(?:create|set\s+up|add|make|start|form|open|establish|spin\s+up|build|launch)\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:department|dept|team|division)\b\s*(?:called|named|for|:|-)?\s*(?P<dept>.*)$"),
    r(CreateDepartment, 0.92, r"\b(?:create|set\s+up|add|make|start|form|open|establish|spin\s+up|launch|need)\s+(?:a\s+|an\s+)?(?:new\s+)?(?P<dept>[A-Za-z][A-Za-z0-9&/-]*(?:\s+[A-Za-z][A-Za-z0-9&/-]*)?)\s+(?:department|dept|team|division)$"),
    r(CreateDepartment, 0.9, r"^new\s+(?:department|dept|team|division)\s*(?:[:-]|called)?\s*(?P<dept>.+)$"),
    r(CreateDepartment, 0.92, r"(?:新建|创建|建立|成立|组建|新增|新开|新设|设立|建|加)\s*(?:一个|个|一下)?\s*(?:新的?)?\s*部门\s*(?:[:,]|叫做?|名为|名叫)?\s*(?P<dept>[^,]*)$"),
    r(CreateDepartment, 0.92, r"(?:新建|创建|建立|成立|组建|新增|新开|新设|设立|建)\s*(?:一个|个)?\s*(?:新的?)?\s*(?P<dept>[^,\s]{1,10}?(?:事业部|部|组|团队|中心))\s*(?:吧)?$"),
    r(CreateDepartment, 0.9, r"\b(?:create|add|new|make)\s*(?:一个|个|a|an)?\s*(?P<dept>[A-Za-z][A-Za-z0-9 &-]*?)\s*部门"),
    // ---- rename_department
    r(RenameDepartment, 0.93, r"\brename\s+(?:the\s+)?(?P<dept>.+?)\s+(?:to|as|into)\s+(?P<new_name>.+)$"),
    r(RenameDepartment, 0.93, r"\bchange\s+the\s+name\s+of\s+(?:the\s+)?(?P<dept>.+?)\s+to\s+(?P<new_name>.+)$"),
    r(RenameDepartment, 0.9, r"\bcall\s+the\s+(?P<dept>.+?)\s+(?:department|dept|team)\s+(?P<new_name>.+?)(?:\s+from\s+now\s+on|\s+going\s+forward|\s+instead)?$"),
    r(RenameDepartment, 0.9, r"^(?:the\s+)?(?P<dept>.+?)\s+should\s+be\s+(?:renamed|called)\s+(?:to\s+)?(?P<new_name>.+)$"),
    r(RenameDepartment, 0.93, r"^(?:把|将)?\s*(?P<dept>[^,]{1,20}?)\s*(?:的?名字|的?名称)?\s*(?:改名|更名|重命名|换名|换成|改成|改为|改叫|改称)\s*(?:为|成|叫做|叫|作)?\s*(?P<new_name>[^,]+)$"),
    // ---- delete_department
    r(DeleteDepartment, 0.92, r"\b(?:delete|remove|shut\s+down|close\s+down|close|dissolve|disband|get\s+rid\s+of|kill|scrap|eliminate|axe)\s+(?:the\s+)?(?P<dept>.+?)(?:\s+(?P<noun>department|dept|team|division))?$"),
    r(DeleteDepartment, 0.92, r"\b(?:shut|close|wind)\s+(?:the\s+)?(?P<dept>.+?)(?:\s+(?P<noun>department|dept|team|division))?\s+down\b(?:\s*,.*)?$"),
    r(DeleteDepartment, 0.93, r"(?:删除|删掉|删了|撤销|撤掉|撤了|解散|取消|砍掉|砍了|关掉|关闭|裁撤)\s*(?:掉)?\s*(?P<dept>[^,]+?)\s*(?:这个部门|这个组|部门)?\s*(?:吧|了)?$"),
    r(DeleteDepartment, 0.93, r"把\s*(?P<dept>[^,]+?)\s*(?:解散|删除|删掉|撤销|撤掉|砍掉|关掉|裁撤)"),
    // ---- assign_task
    r(AssignTask, 0.9, r"\b(?:ask|tell|have|get|make|remind|let)\s+(?P<assignee>.+?)\s+to\s+(?P<desc>.+)$"),
    r(AssignTask, 0.88, r"\b(?:have|make)\s+(?P<assignee>the\s+[A-Za-z]+\s+(?:team|department|dept|folks|people)|[A-Za-z][A-Za-z'-]*|[\p{Han}]{2,4})\s+(?P<desc>[a-z]+\s.+)$"),
    r(AssignTask, 0.86, r"^(?P<assignee>{WHO}|{CNDEPT}),\s*(?:please\s+|pls\s+|can\s+you\s+|could\s+you\s+)?(?P<desc>.+)$"),
    r(AssignTask, 0.88, r"\b(?:assign|give|hand|pass)\s+(?P<desc>.+?)\s+to\s+(?P<assignee>{WHO}|(?:the\s+)?[A-Za-z]+\s+team)$"),
    r(AssignTask, 0.88, r"\bi\s+(?:want|need|would\s+like|'d\s+like)\s+(?P<assignee>{WHO})\s+to\s+(?P<desc>.+)$"),
    r(AssignTask, 0.9, r"^(?:请|麻烦)?\s*(?:让|叫|请|安排|派|要求)\s*(?P<actor>.+)$"),
    r(AssignTask, 0.9, r"^(?:把)?\s*(?P<desc>[^,]+?)\s*(?:交给|交由|分配给|指派给|转交给)\s*(?P<assignee>[^,:]+?)(?:\s*(?:来)?(?:做|负责|处理|跟进))?\s*(?:吧)?$"),
    r(AssignTask, 0.9, r"^(?:交给|交由|指派给|分配给)\s*(?P<assignee>[^,:]+?)\s*:\s*(?P<desc>.+)$"),
    r(AssignTask, 0.9, r"^给\s*(?P<assignee>[^,:]+?)\s*(?:安排|分配|派)\s*(?:一个|个|一项|项)?\s*(?:任务|活儿?|工作)\s*[:,]?\s*(?P<desc>.+)$"),
    // ---- create_requirement
    r(CreateRequirement, 0.92, r"\b(?:start|kick\s+off|create|open|launch|spin\s+up|set\s+up|begin|add|file|log|raise)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:project|requirement|initiative|feature\s+request|epic)\b\s*(?:(?:to|for|about|:|-)\s*(?P<desc>.+))?$"),
    r(CreateRequirement, 0.92, r"^(?:we\s+have\s+a\s+|here's\s+a\s+|a\s+)?new\s+(?:project|requirement|initiative)\s*(?:[:-]|for|to)\s*(?P<desc>.+)$"),
    r(CreateRequirement, 0.92, r"(?:新建|创建|建|开|启动|提|新增|立|发起|加|搞)\s*(?:一个|个|一下)?\s*(?:新的?)?\s*(?:需求|项目)\s*(?:[:,]|叫做?|是)?\s*(?P<desc>.*)$"),
    r(CreateRequirement, 0.92, r"^(?:立项|立个项|立一个项|新需求|新项目)\s*[:,]?\s*(?P<desc>.*)$"),
    // ---- ask_status
    r(AskStatus, 0.9, r"^wh?at(?:'s|s|\s+is|\s+are)\s+(?P<subj>.+?)\s+(?:working\s+on|doing|up\s+to|busy\s+with|been\s+doing|been\s+up\s+to)(?:\s+(?:right\s+)?now|\s+today|\s+these\s+days|\s+lately)?$"),
    r(AskStatus, 0.88, r"^how(?:'s|s|\s+is|\s+are)\s+(?P<subj>.+?)\s+(?:doing|getting\s+on|coming\s+along|going)$"),
    r(AskStatus, 0.88, r"^is\s+(?P<subj>.+?)\s+(?:busy|free|available|around|working|idle|done)$"),
    r(AskStatus, 0.9, r"^who(?:'s|s|\s+is|\s+are)\s+(?:working\s+|left\s+)?(?:in|on)\s+(?:the\s+)?(?P<dept>.+?)$"),
    r(AskStatus, 0.86, r"^any\s+(?:updates?|news|progress)\s+(?:from|on)\s+(?:the\s+)?(?P<subj>.+)$"),
    r(AskStatus, 0.88, r"^(?:a\s+)?(?:status|progress)(?:\s+update)?\s+(?:on|for|of)\s+(?:the\s+)?(?P<topic>.+)$"),
    r(AskStatus, 0.9, r"^how\s+many\s+(?:people|employees|staff|folks|members|heads|engineers|tasks)\b|\bheadcount\b"),
    r(AskStatus, 0.88, r"^what(?:'s|\s+is|\s+are)\s+(?:the\s+)?(?:pending|open|active|current|outstanding)(?:\s+(?:tasks?|work|requirements|projects|items))?$"),
    r(AskStatus, 0.9, r"^(?P<subj>[^,]*?)\s*(?:现在|最近|目前|今天|这周|这几天)?\s*(?:都)?\s*(?:在)?\s*(?:忙什么|忙啥|干嘛|干什么|做什么|在做啥|做啥|干啥|忙些什么|搞什么)(?:呢|呀|啊)?$"),
    r(AskStatus, 0.9, r"^(?P<subj>[^,]+?)\s*的?\s*(?:进度|进展|情况|状态)\s*(?:怎么样|如何|咋样|怎样)(?:了)?$"),
    r(AskStatus, 0.9, r"^(?P<subj>[^,]*?)\s*(?:一共有?|总共有?|共有?|现在有|有)\s*(?:几个|多少|几位|多少个)\s*(?:人|员工|同事)"),
    r(AskStatus, 0.88, r"^(?P<subj>[^,]+?)\s*(?:手上|手头|手里)?\s*(?:有|还有)\s*(?:什么|哪些|多少)\s*(?:任务|活|工作|事)"),
    r(AskStatus, 0.85, r"^(?P<subj>[^,]+?)\s*(?:最近|现在)?\s*(?:怎么样|咋样)(?:了)?$"),
    r(AskStatus, 0.9, r"^谁在\s*(?P<dept>[^,]+?)$"),
    // ---- request_report
    r(RequestReport, 0.9, r"\b(?:give|send|get|show|bring|email|prepare|write(?:\s+up)?|draft|compile|pull\s+together|put\s+together)\s+(?:me\s+|us\s+)?(?:a\s+|an\s+|the\s+)?(?:quick\s+|short\s+|brief\s+|full\s+|detailed\s+)?(?:(?:daily|weekly|monthly|quarterly|status|progress|spending|budget|team|company)\s+)?(?:report|summary|rundown|recap|overview|digest)s?\b(?:\s+(?:on|about|for|of|from)\s+(?P<subj>.+))?$"),
    r(RequestReport, 0.9, r"^(?:i'd|i\s+would|i)\s+(?:like|want|need)\s+(?:a|an|the)\s+(?:\S+\s+)?(?:report|summary|rundown|recap|overview|周报|日报|月报|报告)(?:\s+(?:on|about|for|of|from)\s+(?P<subj>.+)|\s+(?:every|each|by|before|at|this|next|today|tomorrow)\b.*)?$"),
    r(RequestReport, 0.88, r"^(?:(?:daily|weekly|monthly|quarterly|status|progress)\s+)?(?:report|summary|recap)(?:\s+(?:on|about|for|of)\s+(?:the\s+)?(?P<subj>.+))?$"),
    r(RequestReport, 0.9, r"(?:写|出|做|给我|发我|来|整理|交|提交|准备|汇总)\s*(?:一下)?\s*(?:一|1)?\s*(?:份|个|篇|下)?\s*(?:(?P<subj>[^,]+?)\s*的)?\s*[\p{Han}A-Za-z]{0,6}?(?:周报|日报|月报|季报|年报|报告|总结|汇报|纪要|简报)"),
    r(RequestReport, 0.91, r"^(?P<subj>{CNDEPT})\s*(?:写|出|做|交|发)\s*(?:一)?(?:份|个|篇)?\s*[\p{Han}A-Za-z]{0,6}?(?:周报|日报|月报|季报|报告|总结|汇报)"),
    r(RequestReport, 0.9, r"^(?:把)?\s*(?P<subj>[^,]+?)\s*的\s*(?:周报|日报|月报|报告|总结)\s*(?:发给我|给我|发我|拿来|交上来)"),
    r(RequestReport, 0.88, r"^(?:汇报|总结|汇总)\s*(?:一下)\s*(?P<topic>.*)$"),
    // ---- convene_meeting: `fill` reads participants and topic from the whole clause
    r(ConveneMeeting, 0.9, r"\b(?:convene|set\s+up|schedule|call|organi[sz]e|arrange|book|have|hold|host|run|plan|gather\s+.+?\s+for|get\s+.+?\s+into)\s+(?:a\s+|an\s+|一个\s*|一次\s*|个\s*)?(?:quick\s+|short\s+|brief\s+|team\s+|new\s+)?(?:meeting|sync|call|brainstorm(?:ing)?(?:\s+session)?|huddle|standup|stand-up|discussion|1:1|one-on-one)\b"),
    r(ConveneMeeting, 0.88, r"^(?:a\s+)?meeting\s+(?:with|about|on|re)\b"),
    r(ConveneMeeting, 0.9, r"^(?:convene|gather|assemble)\s+(?P<people>.+?)\s+(?:to\s+discuss|to\s+talk\s+about|to\s+talk|about|on|for|regarding)\b"),
    r(ConveneMeeting, 0.92, r"\b(?:get|bring|pull)\s+(?P<people>.+?)\s+together\b"),
    r(ConveneMeeting, 0.92, r"^invite\s+(?P<people>.+?)\s+to\s+(?:a|an|the|our)\s+(?:quick\s+|short\s+|team\s+)?(?:meeting|sync|call|discussion)\b"),
    r(ConveneMeeting, 0.9, r"开会|开个?[\p{Han}]{0,3}?会|拉个会|碰个头|召集|组织(?:一次|一个|个)?会议|会议|大会"),
    // ---- invite_person: a human joins (seed 001). "add/invite X as head of Y" and "邀请X做Y部负责人";
    // a plain "invite X" only when nothing else follows ("invite Alice to the meeting" is no invitation).
    r(InvitePerson, 0.94, r"^(?:invite|add)\s+(?P<name>{WHO})\s+(?:to\s+(?:the\s+)?(?:company|team)\s+)?as\s+(?:the\s+|our\s+|a\s+|an\s+)?(?P<role>(?:head|lead|leader|director|manager|vp|chief|owner)\s+of\s+(?:the\s+)?(?P<dept>[^,]+?))(?:\s+department)?(?:\s*,.*|\s+and\s+(?:she|he|they)\b.*)?$"),
    r(InvitePerson, 0.93, r"^invite\s+(?P<name>{WHO})(?:\s+to\s+(?:the\s+)?(?:company|team))?(?:\s+as\s+(?:the\s+|our\s+|a\s+|an\s+)?(?P<role>[^,]+?))?(?:\s*,.*|\s+and\s+(?:she|he|they)\b.*)?$"),
    r(InvitePerson, 0.94, r"^(?:邀请|添加|加上|拉)\s*(?P<name>[\p{Han}]{1,4}?|[A-Za-z]+)\s*(?:加入公司|进公司|加入)?\s*(?:作为|为|当|做|担任|成为|来当|来做|进来当|进来做)\s*(?P<role>(?P<dept>{CNDEPT})?\s*的?\s*(?:负责人|主管|经理|总监|老大|leader|lead))(?:\s*,.*)?$"),
    r(InvitePerson, 0.93, r"^邀请\s*(?P<name>[\p{Han}]{1,4}?|[A-Za-z]+)\s*(?:来|进来)?\s*(?:负责|管理|管|主管|带领|带)\s*(?P<dept>{CNDEPT})$"),
    r(InvitePerson, 0.93, r"^邀请\s*(?P<name>[\p{Han}]{1,4}?|[A-Za-z]+)\s*(?:加入公司|加入我们|加入团队|进公司|进来)$"),
    // ---- set_reviewer: above assign_task's rows ("have Dan review …" names a reviewer)
    r(SetReviewer, 0.93, r"\b(?:make|set|name|appoint|assign|put)\s+(?P<reviewer>{WHO})\s+(?:as\s+)?(?:the\s+)?reviewer\s+(?:of|for|on)\s+(?:the\s+)?(?P<req>.+)$"),
    r(SetReviewer, 0.93, r"\b(?:have|let|get|ask)\s+(?P<reviewer>{WHO})\s+(?:to\s+)?review\s+(?:the\s+)?(?P<req>.+?\s+(?:requirement|project))$"),
    r(SetReviewer, 0.91, r"^(?P<reviewer>{WHO})\s+(?:should|will|is\s+going\s+to|shall)\s+review\s+(?:the\s+)?(?P<req>.+?\s+(?:requirement|project))$"),
    r(SetReviewer, 0.92, r"^(?:the\s+)?reviewer\s+(?:of|for)\s+(?:the\s+)?(?P<req>.+?)\s+(?:is|should\s+be|will\s+be)\s+(?P<reviewer>{WHO})$"),
    r(SetReviewer, 0.93, r"^(?:让|叫|请|安排|指定|由)\s*(?P<reviewer>[^,]{1,12}?)\s*(?:来|去)?\s*(?:当|做|担任|作为|为)\s*(?P<req>[^,]+?)\s*的\s*(?:评审人?|审核人?|审阅人|reviewer)$"),
    r(SetReviewer, 0.93, r"^(?:让|叫|请|安排|指定|由)\s*(?P<reviewer>[^,]{1,12}?)\s*(?:来|去)?\s*(?:评审|审核|审阅|review)\s*(?:一下)?\s*(?P<req>[^,]+?(?:需求|项目))$"),
    r(SetReviewer, 0.93, r"^(?:把|将)?\s*(?P<req>[^,]+?)\s*的\s*(?:评审人?|审核人?|审阅人|reviewer)\s*(?:设为|设置为|设成|定为|改为|改成|换成|指定为|是|为|给)\s*(?P<reviewer>[^,]+)$"),
    r(SetReviewer, 0.93, r"^(?P<req>[^,]+?(?:需求|项目))\s*(?:由|让|请)\s*(?P<reviewer>[^,]{1,12}?)\s*(?:来)?\s*(?:评审|审核|审阅)$"),
    // ---- set_policy: `fill` reads the level or the amount
    r(SetPolicy, 0.9, r"approv|polic|审批|批准|策略|\bask\s+me\b|问我|问过我|sign[\s-]?off|全自动|autopilot"),
    r(SetPolicy, 0.9, r"budget|spend|\bcap\b|\blimit\b|预算|花费|开销|额度"),
    // ---- approve / reject (a pending approval, by reference or the latest)
    r(Approve, 0.92, r"^{YES}(?:approve[ds]?|approval\s+granted|go\s+ahead|lgtm|ship\s+it|green\s*light|批准|同意|通过|准了|批了|批吧|可以批|准|批){OBJ}{REF}{OBJ}{TAIL}{REASON}$"),
    // a go-ahead in so many words: "ok, do it", "go for it", "好，就按这个来", "去执行吧"
    r(Approve, 0.92, r"^{YES}(?:please\s+)?(?:do\s+it|go\s+for\s+it|proceed|carry\s+on|run\s+it|make\s+it\s+so|(?:去|就)?(?:执行|照办|照做|这么办|这么做|按这个来|按这个办|按你说的办|按你说的做|这样办|这样做|干吧|做吧)){OBJ}{REF}{OBJ}{TAIL}[.!。！]?$"),
    r(Reject, 0.92, r"^{NO}(?:这个|那个|这个申请)?\s*(?:reject(?:ed)?|deny|denied|decline[d]?|refuse[d]?|don't\s+approve|do\s+not\s+approve|no\s+way|veto|驳回|拒绝|不同意|不批|不准|不行|否决|不通过|打回){OBJ}{REF}{OBJ}{TAIL}{REASON}$"),
    // a stop in so many words: "don't do that", "hold off on it", "不行，别这么做", "先别执行"
    r(Reject, 0.92, r"^{NO}(?:please\s+)?(?:don't|do\s+not|never)\s+(?:do\s+)?(?:it|that|this)|^{NO}(?:hold\s+off|hold\s+it)(?:\s+on\s+(?:it|that|this))?[.!]?$|^{NO}(?:先)?(?:别|不要|不准)\s*(?:这么|这样)?\s*(?:做|执行|办|干|弄){OBJ}{TAIL}[.!。！]?$"),
    // ---- chitchat and questions about the secretary itself
    r(Chitchat, 0.9, r"^{NICE}(?:\s*(?:there|everyone|all|secretary|mate|buddy|guys|folks|啊|呀|啦|哦|哈|秘书))?(?:[\s~!.?,:)(]+{NICE})*[\s~!.?,:)(]*$"),
    r(Question, 0.92, r"^(?:what\s+can\s+you\s+do|what\s+do\s+you\s+do|who\s+are\s+you|what\s+are\s+you|help|help\s+me|how\s+does\s+this\s+work|how\s+do\s+(?:i|we)\b.*|how\s+(?:does|do)\s+.+\s+work|what\s+(?:does|do)\s+.+\s+mean|what(?:'s|\s+is)\s+the\s+difference\s+between\b.*|can\s+you\s+explain\b.*|explain\b.*|what\s+(?:kind\s+of\s+|sort\s+of\s+)?(?:things|stuff)\s+can\s+you\b.*|how\s+can\s+you\s+help\b.*|what\s+can\s+you\s+help\b.*|is\s+there\s+(?:a|any)\s+way\b.*|how\s+(?:can|could|would|should)\s+(?:i|we)\b.*)$"),
    r(Question, 0.92, r"^(?:你能做什么|你会做什么|你可以做什么|你会什么|你能干什么|你能干嘛|你是谁|怎么用|如何使用|怎么使用|帮助|使用说明|.*是怎么(?:运作|工作|用)的?|你(?:能|可以|会)(?:帮我)?(?:做|干)(?:哪些|什么)(?:事|事情)?|(?:怎么|如何)(?:添加|设置|配置|修改|创建|用|撤销).*|.*是什么意思|什么是.+|.+(?:流程|规则|机制)是(?:什么|怎样的|怎么样的)|.+是怎么回事)$"),
];
