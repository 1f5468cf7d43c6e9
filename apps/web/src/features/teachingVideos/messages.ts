/**
 * Texts of the teaching-video screen (merged into the catalogs under `teachingVideos`). Both languages with the
 * same keys: the English object is typed by the Chinese one, and the catalog test compares them.
 */
export const teachingVideosZh = {
  title: '教学视频',
  searchPlaceholder: '标题或描述',
  allKinds: '全部设备',
  everyKind: '通用',
  kindCount: '{name}（{count}）',
  empty: '暂无教学视频',
  loadFailed: '教学视频加载失败',
  upload: '上传视频',
  uploaded: '视频已上传',
  play: '播放',
  noPoster: '暂无封面',
  form: {
    uploadTitle: '上传教学视频',
    editTitle: '编辑教学视频：{name}',
    file: '视频文件',
    choose: '选择视频文件',
    fileHint: 'MP4 或 WebM，最大 {max}',
    title: '标题',
    describe: '描述',
    notes: '备注',
    claType: '适用设备',
    uploading: '正在上传 {percent}%',
    processing: '上传完成，服务器正在生成封面…',
  },
  check: {
    name: '请选择 .mp4 或 .webm 文件',
    empty: '文件为空',
    tooLarge: '文件超过 {max} 的上限',
    content: '文件内容不是 MP4 或 WebM 视频',
  },
};

export const teachingVideosEn: typeof teachingVideosZh = {
  title: 'Teaching videos',
  searchPlaceholder: 'Title or description',
  allKinds: 'All devices',
  everyKind: 'All kinds',
  kindCount: '{name} ({count})',
  empty: 'No teaching videos',
  loadFailed: 'The teaching videos could not be loaded',
  upload: 'Upload a video',
  uploaded: 'Video uploaded',
  play: 'Play',
  noPoster: 'No poster',
  form: {
    uploadTitle: 'Upload a teaching video',
    editTitle: 'Edit teaching video: {name}',
    file: 'Video file',
    choose: 'Choose a video file',
    fileHint: 'MP4 or WebM, up to {max}',
    title: 'Title',
    describe: 'Description',
    notes: 'Notes',
    claType: 'For devices',
    uploading: 'Uploading {percent}%',
    processing: 'Uploaded; the server is making the poster…',
  },
  check: {
    name: 'Choose an .mp4 or .webm file',
    empty: 'The file is empty',
    tooLarge: 'The file is over the {max} limit',
    content: 'The file is not an MP4 or WebM video',
  },
};
